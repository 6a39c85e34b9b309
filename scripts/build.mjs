// Bundles the CLI (and everything it imports from src/) into dist/cli.mjs.
// Runs on `npm ci` (prepare), so `npx authsvc` works straight after install.
// The pure-JavaScript dependencies every start loads go into the bundle: Node's ESM loader
// resolves, reads and links each file of a package on its own (kysely alone is hundreds of
// files), and one file parses in about half the time, in every process `serve --workers N`
// starts (docs/performance.md, "Start-up"). The rest stay external, installed beside the bundle:
// native addons (they cannot be bundled) and the packages loaded only when a feature is first
// used (listed below), so a start does not even parse them.
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
  external: [
    // native addons, and pg's optional native driver (never used)
    "better-sqlite3", "@node-rs/bcrypt", "@node-rs/argon2", "pg-native",
    // loaded on first use: PostgreSQL, the OAuth provider, passkeys, the mail catcher and SMTP,
    // QR codes, the password-strength check, MD4 and Whirlpool of
    // imported password hashes
    "pg", "oidc-provider", "@simplewebauthn/server", "smtp-server", "postal-mime", "nodemailer",
    "qrcode", "@zxcvbn-ts/core", "@zxcvbn-ts/language-common", "hash-wasm",
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
