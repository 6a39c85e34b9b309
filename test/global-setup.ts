import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Builds dist/cli.mjs once before the suite: the tests that run `bin/authsvc` as a child process
 * (concurrent migrators, serve and signals) exercise the same bundle `npx authsvc` runs. Without
 * PostgreSQL, says once per run (after the summary) that its variants did not run.
 */
export default function setup(): (() => void) | void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" });
  if (!process.env.AUTHSVC_TEST_PG_URL) {
    return () => {
      process.stderr.write("NOTE: the PostgreSQL variants of the store and HTTP tests, and the moves from a SuperTokens core and a Supabase database, did NOT run; run them with AUTHSVC_TEST_PG_URL=postgres://postgres@127.0.0.1:5432/test npm test\n");
    };
  }
}
