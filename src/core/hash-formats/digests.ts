import { createHash, createHmac } from "node:crypto";
import { createRequire } from "node:module";

/**
 * One pass of a plain digest or an HMAC, for the salted-digest formats other systems stored (LDAP's
 * {SSHA}, Auth0's md5/sha1/sha256/sha512/md4/hmac). A single pass over a password and a bounded salt
 * is a few microseconds, so it is computed in place, not sent to a thread. MD4 and Whirlpool are not
 * in OpenSSL 3's default provider (Node 17 and later have them only with --openssl-legacy-provider):
 * they come from hash-wasm, loaded on first use.
 */
const NODE: readonly string[] = ["md5", "sha1", "sha224", "sha256", "sha384", "sha512", "ripemd160"];

interface Hasher { init(): Hasher; update(data: Uint8Array): Hasher; digest(format: "binary"): Uint8Array }
type HashWasm = { createMD4(): Promise<Hasher>; createWhirlpool(): Promise<Hasher>; createHMAC(hasher: Promise<Hasher>, key: Uint8Array): Promise<Hasher> };
let hashWasmModule: HashWasm | undefined;
function hashWasm(): HashWasm {
  return (hashWasmModule ??= (typeof require === "function" ? require("hash-wasm") : createRequire(import.meta.url)("hash-wasm")) as HashWasm);
}
const WASM: Readonly<Record<string, () => Promise<Hasher>>> = { md4: () => hashWasm().createMD4(), whirlpool: () => hashWasm().createWhirlpool() };

/** The digests digestOf and hmacOf compute. */
export const DIGESTS: readonly string[] = [...NODE, ...Object.keys(WASM)];

/** The digest `name` (one of DIGESTS) of `data`. */
export async function digestOf(name: string, data: Buffer): Promise<Buffer> {
  if (NODE.includes(name)) return createHash(name).update(data).digest();
  const hasher = await WASM[name]();
  return Buffer.from(hasher.init().update(data).digest("binary"));
}

/** HMAC with the digest `name` (one of DIGESTS). */
export async function hmacOf(name: string, key: Buffer, data: Buffer): Promise<Buffer> {
  if (NODE.includes(name)) return createHmac(name, key).update(data).digest();
  const hasher = await hashWasm().createHMAC(WASM[name](), key);
  return Buffer.from(hasher.init().update(data).digest("binary"));
}

/** The length of a digest's output in bytes. */
export const DIGEST_BYTES: Readonly<Record<string, number>> = { md4: 16, md5: 16, sha1: 20, sha224: 28, sha256: 32, sha384: 48, sha512: 64, ripemd160: 20, whirlpool: 64 };
