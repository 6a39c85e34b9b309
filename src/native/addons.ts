import { getRawAsset, isSea } from "node:sea";
import { cacheDirFor, extractAddon, type NativeManifest } from "./extract.js";

/**
 * The one place that knows where the native addons (better-sqlite3, @node-rs/bcrypt, @node-rs/argon2) come from.
 *
 * - npm install: nowhere special. Each package finds its own compiled file in node_modules, as
 *   it always does (`resolveNativeBinding` answers undefined, and `@node-rs/bcrypt` is imported
 *   as is).
 * - Single executable (scripts/build-binary.mjs): the addons travel inside the executable as SEA
 *   assets. On first use they are written to a private per-version cache directory
 *   (extract.ts: content-checked against the build's SHA-256, 0700/0500), then loaded from
 *   there with process.dlopen. better-sqlite3 gets the loaded module as its `nativeBinding`;
 *   @node-rs/bcrypt's own loader (binding.js) is replaced at build time by a call to
 *   `loadNativeBinding("@node-rs/bcrypt")`, and @node-rs/argon2's (index.js, imported Argon2
 *   hashes) by `loadNativeBinding("@node-rs/argon2")`.
 *
 * Everything else (every command, every feature) is the same code in both.
 */

export type NativeAddonName = "better-sqlite3" | "@node-rs/bcrypt" | "@node-rs/argon2";

// Set by scripts/build-binary.mjs; absent in the npm build and when the tests run the source.
declare const __AUTHSVC_NATIVE__: NativeManifest | undefined;

const manifest: NativeManifest | undefined = typeof __AUTHSVC_NATIVE__ === "object" ? __AUTHSVC_NATIVE__ : undefined;
const resolved = new Map<string, string>();
const loaded = new Map<string, unknown>();

/** True in the single executable (the addons come from inside it), false in an npm install. */
export function isSingleExecutable(): boolean {
  return manifest !== undefined;
}

/**
 * The path of the addon file to load, in the single executable (extracted and checked on first
 * call); undefined in an npm install, where the package loads its own.
 */
export function resolveNativeBinding(name: NativeAddonName): string | undefined {
  if (!manifest) return undefined;
  let path = resolved.get(name);
  if (path === undefined) resolved.set(name, (path = extract(manifest, name)));
  return path;
}

function extract(manifest: NativeManifest, name: NativeAddonName): string {
  const asset = manifest.addons[name];
  if (!asset) throw new Error(`this executable carries no native addon for ${name}`);
  const dir = cacheDirFor(manifest);
  try {
    return extractAddon(dir, asset, readSeaAsset);
  } catch (err) {
    throw new Error(`cannot prepare the native module ${asset.file} in ${dir}: ${(err as Error).message} (set XDG_CACHE_HOME to a directory this user owns)`);
  }
}

/**
 * The loaded addon module (what `require("….node")` would return) in the single executable, from
 * `path` or from `resolveNativeBinding(name)`; undefined in an npm install with no path given.
 * Loaded once per thread.
 */
export function loadNativeBinding(name: NativeAddonName, path: string | undefined = resolveNativeBinding(name)): object | undefined {
  if (path === undefined) return undefined;
  if (!loaded.has(path)) {
    const module = { exports: {} as object };
    process.dlopen(module, path);
    loaded.set(path, module.exports);
  }
  return loaded.get(path) as object;
}

function readSeaAsset(key: string): ArrayBuffer {
  if (!isSea()) throw new Error("this bundle expects to run as a single executable, which carries the addons");
  return getRawAsset(key) as ArrayBuffer;
}
