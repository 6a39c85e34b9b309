// What `authsvc --version` names, shared by both builds (scripts/build.mjs, scripts/build-binary.mjs):
// the package version and the git commit the build was made from ("unknown" outside a git checkout,
// e.g. when building from an unpacked tarball).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));

export function readBuildInfo() {
  const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() || "unknown";
  } catch {
    // Not a git checkout, or no git: the version alone still says what this is.
  }
  return { version, commit };
}

/** esbuild `define` entries for src/cli/main.ts. */
export function versionDefines({ version, commit }) {
  return { __VERSION__: JSON.stringify(version), __COMMIT__: JSON.stringify(commit) };
}
