// Bundles the CLI (and everything it imports from src/) into dist/cli.mjs.
// Runs on `npm ci` (prepare), so `npx authsvc` works straight after install.
// Dependencies stay external: they are installed beside the bundle, and native
// modules (better-sqlite3, @node-rs/bcrypt) cannot be bundled anyway.
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// `import text from "./file.css?raw"` (as in Vite, which vitest uses): the hosted pages' static
// assets are bundled into the CLI as strings, so nothing has to be found on disk at run time.
const rawText = {
  name: "raw-text",
  setup(b) {
    b.onResolve({ filter: /\?raw$/ }, (a) => ({ path: join(a.resolveDir, a.path.slice(0, -4)), namespace: "raw-text" }));
    b.onLoad({ filter: /.*/, namespace: "raw-text" }, async (a) => ({ contents: await readFile(a.path, "utf8"), loader: "text" }));
  },
};

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
  plugins: [rawText],
  // `authsvc --version` prints the package's version.
  define: { __VERSION__: JSON.stringify(JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version) },
});
