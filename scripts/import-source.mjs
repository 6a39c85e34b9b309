// Loads a TypeScript module of src/ from a plain Node script (the docs generators), bundled the way
// scripts/build.mjs bundles the CLI, so the docs are made from the code users run.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { rawText, root } from "./build-info.mjs";

/** Imports `entry` (a path under the project root, e.g. "src/config.ts"). */
export async function importSource(entry) {
  // Bundled to a file inside the project (not a data: URL) so its bare imports resolve from node_modules.
  const name = entry.replace(/[^\w]+/g, "-");
  const outfile = join(root, "node_modules", ".cache", "authsvc", `${name}-${process.pid}-${Date.now()}.mjs`);
  await build({
    absWorkingDir: root, entryPoints: [entry], bundle: true, outfile,
    format: "esm", platform: "node", packages: "external", logLevel: "silent", plugins: [rawText],
    banner: { js: 'import { createRequire as __authsvcCreateRequire } from "node:module"; const require = __authsvcCreateRequire(import.meta.url);' },
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(outfile, { force: true });
  }
}
