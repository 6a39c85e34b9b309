// Bundles the CLI (and everything it imports from src/) into dist/cli.mjs and its chunks.
// Runs on `npm ci` (prepare), so `npx authsvc` works straight after install.
// The pure-JavaScript dependencies every start loads go into the bundle: Node's ESM loader
// resolves, reads and links each file of a package on its own (kysely alone is hundreds of
// files), and one file parses in about half the time, in every process `serve --workers N`
// starts (docs/performance.md, "Start-up"). The rest stay external, installed beside the bundle:
// native addons (they cannot be bundled) and the packages loaded only when a feature is first
// used (listed below), so a start does not even parse them.
// What src/ imports with `await import()` (the rooms' handlers behind kernel/lazy.ts, SAML and its
// XML libraries, the importers, the catalogues beyond the default locale...) goes into chunks of
// its own under dist/chunks/, which a process reads when it first needs one: a start parses and
// keeps in memory only the entry chunk (docs/performance.md, "Memory").
// (scripts/build-binary.mjs makes the single executable from the same sources.)
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { rawText, readBuildInfo, root, versionDefines } from "./build-info.mjs";

// Chunks are named by their content's hash: a rebuild must not leave the previous build's beside it.
rmSync(join(root, "dist", "chunks"), { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: { cli: "src/cli/main.ts" },
  outdir: "dist",
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.19",
  external: [
    // native addons, and pg's optional native driver (never used)
    "better-sqlite3", "@node-rs/bcrypt", "@node-rs/argon2", "pg-native",
    // loaded on first use: PostgreSQL, the OAuth provider, passkeys, the mail catcher and SMTP,
    // the single-process listener, QR codes, the password-strength check, MD4 and Whirlpool of
    // imported password hashes
    "pg", "oidc-provider", "@simplewebauthn/server", "smtp-server", "postal-mime", "nodemailer",
    "listhen", "qrcode", "@zxcvbn-ts/core", "@zxcvbn-ts/language-common", "hash-wasm",
  ],
  sourcemap: "linked",
  logLevel: "warning",
  // A real `require` for the few lazy requires in src/ (the common-password list is loaded on
  // first use): esbuild's ESM output has none of its own.
  banner: { js: 'import { createRequire as __authsvcCreateRequire } from "node:module"; const require = __authsvcCreateRequire(import.meta.url);' },
  // `authsvc --version` prints the package's version and the commit it was built from.
  define: versionDefines(readBuildInfo()),
  plugins: [rawText],
});

// V8 keeps a script's source text in memory for as long as its functions live, and one character
// outside Latin-1 makes it keep the whole text at two bytes a character. esbuild escapes every
// non-ASCII character in strings and identifiers, but keeps those of the comments it carries over
// (a "§" or "—" in a dependency's comment doubled the 4.7 MB bundle's 4.7 MB in every process):
// they become "?", one UTF-16 unit for one, so the source map's columns stay right.
for (const dir of ["dist", join("dist", "chunks")]) {
  if (!existsSync(join(root, dir))) continue;
  for (const name of readdirSync(join(root, dir))) {
    if (!name.endsWith(".mjs")) continue;
    const file = join(root, dir, name);
    const text = readFileSync(file, "utf8");
    if (!/[^\x00-\x7f]/.test(text)) continue;
    // Only comments: a line whose first non-ASCII character is not after "//" or on a "*" line would be code.
    for (const line of text.split("\n")) {
      const at = line.search(/[^\x00-\x7f]/);
      if (at >= 0 && !(line.lastIndexOf("//", at) >= 0 || /^\s*(\/?\*|\(\*)/.test(line))) {
        throw new Error(`${file}: non-ASCII outside a comment, which esbuild should have escaped: ${line.trim().slice(0, 120)}`);
      }
    }
    writeFileSync(file, text.replace(/[^\x00-\x7f]/g, "?"));
  }
}
