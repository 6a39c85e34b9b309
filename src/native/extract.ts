import { createHash, randomBytes } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync, type Stats } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/** One native addon carried inside the single executable: the SEA asset key (= file name) and its SHA-256. */
export interface AddonAsset {
  file: string;
  sha256: string;
}

/** What scripts/build-binary.mjs writes into the single executable (esbuild define). */
export interface NativeManifest {
  version: string;
  addons: Record<string, AddonAsset>;
}

/**
 * The per-version cache directory the addons are extracted to:
 * `$XDG_CACHE_HOME/authsvc/<version>-<hash>/` (else `~/.cache/authsvc/…`). The hash covers the
 * addons' contents, so two builds with different addons never share a directory.
 * (This reads the environment outside config.ts on purpose: it runs while the program is still
 * being loaded, before any setting exists, and follows the platform's convention, not a setting.)
 */
export function cacheDirFor(manifest: NativeManifest, env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), ".cache");
  const digest = createHash("sha256");
  for (const name of Object.keys(manifest.addons).sort()) digest.update(`${name}\0${manifest.addons[name].sha256}\0`);
  return join(base, "authsvc", `${manifest.version}-${digest.digest("hex").slice(0, 12)}`);
}

/**
 * Makes sure `dir/<asset.file>` holds exactly the asset's bytes and returns its path. An existing
 * file is reused only when its SHA-256 matches the one recorded at build time; a missing, truncated
 * or tampered file is rewritten from the asset (to a temporary name, then renamed over, so two
 * processes starting at once never load a half-written file). The directory is private to the
 * user (0700) and the file read-only (0500): a library other users could write to would let them
 * run code as this service.
 */
export function extractAddon(dir: string, asset: AddonAsset, readAsset: (key: string) => ArrayBuffer): string {
  preparePrivateDir(dir);
  const path = join(dir, asset.file);
  if (isIntact(path, asset.sha256)) return path;
  const bytes = new Uint8Array(readAsset(asset.file));
  if (sha256(bytes) !== asset.sha256) throw new Error(`the executable is damaged: its copy of ${asset.file} does not match the build's checksum`);
  const tmp = join(dir, `.${asset.file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    writeFileSync(tmp, bytes, { mode: 0o600, flag: "wx" });
    chmodSync(tmp, 0o500);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return path;
}

function isIntact(path: string, expected: string): boolean {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch {
    return false;
  }
  // A symlink, a foreign file or one others may write is replaced, whatever its content.
  if (!st.isFile() || !isOwnAndPrivate(st, 0o022)) return false;
  return sha256(readFileSync(path)) === expected;
}

/** Creates `dir` (and its `authsvc` parent) as 0700, or checks that an existing one is ours and private. */
function preparePrivateDir(dir: string): void {
  const parent = join(dir, "..");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The parent may be shared with other versions; nobody else may write to it (they could swap ours).
  checkDir(parent, 0o022);
  checkDir(dir, 0o077);
}

function checkDir(dir: string, forbidden: number): void {
  const st = lstatSync(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory`);
  if (typeof process.getuid !== "function") return;
  if (st.uid !== process.getuid()) throw new Error(`${dir} belongs to another user; refusing to load native code from it`);
  if ((st.mode & forbidden) !== 0) chmodSync(dir, st.mode & 0o777 & ~forbidden);
}

function isOwnAndPrivate(st: Stats, forbidden: number): boolean {
  if (typeof process.getuid === "function" && st.uid !== process.getuid()) return false;
  return (st.mode & forbidden) === 0;
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
