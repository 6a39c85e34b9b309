import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Builds dist/cli.mjs once before the suite: the tests that run `bin/authsvc` as a child process
 * (concurrent migrators, serve and signals) exercise the same bundle `npx authsvc` runs.
 */
export default function setup(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" });
}
