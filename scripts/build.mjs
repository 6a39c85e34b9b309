// Bundles the CLI (and everything it imports from src/) into dist/cli.mjs.
// Runs on `npm ci` (prepare), so `npx authsvc` works straight after install.
// Dependencies stay external: they are installed beside the bundle, and native
// modules (better-sqlite3, @node-rs/bcrypt) cannot be bundled anyway.
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
await build({
  absWorkingDir: root,
  entryPoints: ["src/cli/main.ts"],
  outfile: "dist/cli.mjs",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.19",
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
  // `authsvc --version` prints the package's version.
  define: { __VERSION__: JSON.stringify(JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version) },
});
