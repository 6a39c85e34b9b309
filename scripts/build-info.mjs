// Shared by both builds: what `authsvc --version` names (scripts/build.mjs, scripts/build-binary.mjs):
// the package version and the git commit the build was made from ("unknown" outside a git checkout,
// e.g. when building from an unpacked tarball).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
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

/**
 * esbuild plugin for `import text from "./file.css?raw"` (as in Vite, which vitest uses): the hosted
 * pages' static assets are bundled into the CLI as strings, so nothing is looked up on disk at run
 * time (in the single executable there is no source tree to find them in). Both builds use it.
 */
export const rawText = {
  name: "raw-text",
  setup(b) {
    b.onResolve({ filter: /\?raw$/ }, (a) => {
      const spec = a.path.slice(0, -4);
      if (spec.startsWith(".") || spec.startsWith("/")) return { path: join(a.resolveDir, spec), namespace: "raw-text" };
      // A package's file (the hosted pages serve ALTCHA's widget): resolved through its exports with
      // Node's own resolver and the "import" condition, as Vite does (the bundles keep packages external).
      return { path: fileURLToPath(import.meta.resolve(spec)), namespace: "raw-text" };
    });
    b.onLoad({ filter: /.*/, namespace: "raw-text" }, async (a) => ({ contents: await readFile(a.path, "utf8"), loader: "text" }));
  },
};
