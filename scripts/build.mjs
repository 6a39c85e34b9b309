// Bundles the CLI (and everything it imports from src/) into dist/cli.mjs.
// Runs on `npm ci` (prepare), so `npx authsvc` works straight after install.
// Dependencies stay external: they are installed beside the bundle, and native
// modules (better-sqlite3, @node-rs/bcrypt) cannot be bundled anyway.
// (scripts/build-binary.mjs makes the single executable from the same sources.)
import { build } from "esbuild";
import { rawText, readBuildInfo, root, versionDefines } from "./build-info.mjs";

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
  // A real `require` for the few lazy requires in src/ (the common-password list is loaded on
  // first use): esbuild's ESM output has none of its own.
  banner: { js: 'import { createRequire as __authsvcCreateRequire } from "node:module"; const require = __authsvcCreateRequire(import.meta.url);' },
  // `authsvc --version` prints the package's version and the commit it was built from.
  define: versionDefines(readBuildInfo()),
  plugins: [rawText],
});
