// `npm run build:binary`: makes dist/authsvc-<os>-<arch>, a Node.js single executable application
// (https://nodejs.org/api/single-executable-applications.html) that runs alone: no node, no
// node_modules. Steps:
//   1. esbuild bundles src/cli/single-executable.ts with every pure-JavaScript dependency into one
//      CommonJS file (the SEA main must be CommonJS on Node 20);
//   2. the native addons this machine's node_modules loads (better-sqlite3, @node-rs/bcrypt's and @node-rs/argon2's
//      platform package) go in as SEA assets, with their SHA-256 written into the bundle; at run
//      time src/native/addons.ts extracts, checks and loads them;
//   3. `node --experimental-sea-config` makes the blob, postject injects it into a copy of the
//      node binary running this script. The executable is for this OS, CPU and Node.js version.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join } from "node:path";
import { build } from "esbuild";
import { inject } from "postject";
import { rawText, readBuildInfo, root, versionDefines } from "./build-info.mjs";

const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 20 || (major === 20 && minor < 19)) throw new Error(`Node.js 20.19 or newer is needed to build the executable (this is ${process.version})`);
if (process.platform === "win32") throw new Error("building the single executable on Windows is not supported yet");

const work = join(root, "dist", "sea");
const output = join(root, "dist", `authsvc-${process.platform}-${process.arch}`);
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

const info = readBuildInfo();
const addons = findNativeAddons();
const manifest = {
  version: info.version,
  addons: Object.fromEntries(Object.entries(addons).map(([name, path]) => [name, { file: basename(path), sha256: sha256(readFileSync(path)) }])),
};

// 1. The bundle.
const bundle = join(work, "authsvc.cjs");
let bcryptLoaderReplaced = false;
let argon2LoaderReplaced = false;
// The SQLite checkpoint thread (src/store/wal-checkpointer.ts) is started from source text; in the
// executable there is no better-sqlite3 package on disk for it to require, so its JavaScript goes
// along as one script defining a global, and the worker loads the extracted addon by path.
const betterSqlite3Bundle = (await build({
  absWorkingDir: root,
  stdin: { contents: 'module.exports = require("better-sqlite3");', resolveDir: root, loader: "js" },
  bundle: true, platform: "node", format: "iife", globalName: "__authsvcBetterSqlite3", target: "node20.19",
  write: false, logLevel: "warning",
})).outputFiles[0].text;

await build({
  absWorkingDir: root,
  entryPoints: ["src/cli/single-executable.ts"],
  outfile: bundle,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: `node${process.versions.node}`,
  minifySyntax: true,
  minifyWhitespace: true,
  logLevel: "warning",
  // pg's optional native driver (pg.native) is never used; its require stays lazy and unresolved.
  external: ["pg-native"],
  define: {
    ...versionDefines(info),
    __AUTHSVC_NATIVE__: JSON.stringify(manifest),
    __BETTER_SQLITE3_BUNDLE__: JSON.stringify(betterSqlite3Bundle),
    // CommonJS has no import.meta; the dependencies that use it only want a base for createRequire
    // (built-in modules, optional packages in try/catch) or their own folder.
    "import.meta.url": "__authsvc_import_meta_url",
  },
  banner: { js: 'var __authsvc_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [rawText, {
    name: "authsvc-native-addons",
    setup(b) {
      // @node-rs/bcrypt picks its compiled file from a platform package at run time (napi-rs
      // binding.js); in the executable it comes from the asset instead, through the same room.
      b.onLoad({ filter: /[\\/]@node-rs[\\/]bcrypt[\\/]binding\.js$/ }, () => {
        bcryptLoaderReplaced = true;
        return {
          contents: `module.exports = require(${JSON.stringify(join(root, "src/native/addons.ts"))}).loadNativeBinding("@node-rs/bcrypt");`,
          loader: "js",
        };
      });
      // @node-rs/argon2 (imported Argon2 hashes) has the same napi-rs loader, in its index.js.
      b.onLoad({ filter: /[\\/]@node-rs[\\/]argon2[\\/]index\.js$/ }, () => {
        argon2LoaderReplaced = true;
        return {
          contents: `module.exports = require(${JSON.stringify(join(root, "src/native/addons.ts"))}).loadNativeBinding("@node-rs/argon2");`,
          loader: "js",
        };
      });
    },
  }],
});
if (!argon2LoaderReplaced) throw new Error("@node-rs/argon2's index.js was not found in the bundle; its layout changed: update the plugin in scripts/build-binary.mjs");
if (!bcryptLoaderReplaced) throw new Error("@node-rs/bcrypt's binding.js was not found in the bundle; its layout changed: update the plugin in scripts/build-binary.mjs");

// 2 and 3. The blob, injected into a copy of this node.
const blob = join(work, "authsvc.blob");
const seaConfig = join(work, "sea-config.json");
writeFileSync(seaConfig, JSON.stringify({
  main: bundle,
  output: blob,
  disableExperimentalSEAWarning: true,
  // V8's compile cache for the bundle goes in too: a faster start for every run.
  useCodeCache: true,
  assets: Object.fromEntries(Object.values(addons).map((path) => [basename(path), path])),
}, null, 2));
execFileSync(process.execPath, ["--experimental-sea-config", seaConfig], { cwd: work, stdio: ["ignore", "ignore", "inherit"] });

rmSync(output, { force: true });
copyFileSync(process.execPath, output);
chmodSync(output, 0o755);
if (process.platform === "linux") stripDebugInfo(output);
if (process.platform === "darwin") execFileSync("codesign", ["--remove-signature", output]);
// postject (LIEF) prints "warning: Can't find string offset for section name '.note…'" for the notes
// in Node's Linux binary: harmless, the executable is complete.
await inject(output, "NODE_SEA_BLOB", readFileSync(blob), {
  sentinelFuse: "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2",
  machoSegmentName: process.platform === "darwin" ? "NODE_SEA" : undefined,
});
if (process.platform === "darwin") execFileSync("codesign", ["--sign", "-", output]);

const mb = (statSync(output).size / 1e6).toFixed(1);
console.log(`built ${output} (${mb} MB; authsvc ${info.version}, commit ${info.commit}, Node.js ${process.version}, ${process.platform}-${process.arch})`);

/**
 * The compiled addon files exactly as Node loads them on this machine: load both packages the
 * normal way and read back which .node files entered the require cache (napi-rs picks among
 * platform packages, glibc and musl; better-sqlite3 goes through `bindings`).
 */
function findNativeAddons() {
  const require = createRequire(join(root, "package.json"));
  const before = new Set(Object.keys(require.cache));
  const Database = require("better-sqlite3");
  new Database(":memory:").close();
  require("@node-rs/bcrypt");
  require("@node-rs/argon2");
  const loaded = Object.keys(require.cache).filter((p) => p.endsWith(".node") && !before.has(p));
  const pick = (pattern, name) => {
    const found = loaded.filter((p) => pattern.test(p));
    if (found.length !== 1) throw new Error(`expected one native addon for ${name}, found ${JSON.stringify(found)}`);
    return found[0];
  };
  return {
    "better-sqlite3": pick(/[\\/]better-sqlite3[\\/]/, "better-sqlite3"),
    "@node-rs/bcrypt": pick(/[\\/]@node-rs[\\/]bcrypt/, "@node-rs/bcrypt"),
    "@node-rs/argon2": pick(/[\\/]@node-rs[\\/]argon2/, "@node-rs/argon2"),
  };
}

/** The node binary may carry debug sections (tens of MB) that nothing reads at run time. */
function stripDebugInfo(file) {
  try {
    execFileSync("strip", ["--strip-debug", file], { stdio: "ignore" });
  } catch {
    // No binutils: the executable is just bigger.
  }
}

function sha256(bytes) {
  return createHash("sha256").update(bytes).digest("hex");
}
