import { createCipheriv, scrypt as scryptCallback, type ScryptOptions } from "node:crypto";
import { decodeBase64, grouped, intIn, parseParams, sameBytes } from "./encoding.js";
import type { HashFormat } from "./types.js";

/**
 * Bounds on imported scrypt parameters: memory 128·N·r at most 256 MiB, and work N·r·p at most
 * 2^21, about one bcrypt check at cost 14 (docs/moving-in.md, the bounds table; Firebase's own is
 * 2^17, passlib's default 2^19, Kratos' 2^18, Auth0's default 2^17).
 */
export const SCRYPT_BOUNDS = { maxMemoryBytes: 256 * 1024 * 1024, maxWork: 2 ** 21, maxR: 32, maxP: 16 };

/** node:crypto's scrypt, asynchronous: it runs on libuv's thread pool, never on the event loop. */
export function scrypt(password: string | Buffer, salt: Buffer, keylen: number, N: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N, r, p, maxmem: 2 * 128 * N * r + 1024 * 1024 };
  return new Promise((resolve, reject) => scryptCallback(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/** Why scrypt with these parameters is refused (naming the one out of bounds), or null. */
export function checkScryptCost(N: number, r: number, p: number, what: string): string | null {
  if (N < 2 || (N & (N - 1)) !== 0) return `${what}: N=${N} is not a power of two`;
  if (r < 1 || r > SCRYPT_BOUNDS.maxR) return `${what}: r=${r} is out of bounds (1 to ${SCRYPT_BOUNDS.maxR})`;
  if (p < 1 || p > SCRYPT_BOUNDS.maxP) return `${what}: p=${p} is out of bounds (1 to ${SCRYPT_BOUNDS.maxP})`;
  if (128 * N * r > SCRYPT_BOUNDS.maxMemoryBytes) return `${what}: memory 128·N·r = ${grouped(128 * N * r)} bytes is out of bounds (at most ${grouped(SCRYPT_BOUNDS.maxMemoryBytes)})`;
  if (N * r * p > SCRYPT_BOUNDS.maxWork) return `${what}: work N·r·p = ${grouped(N * r * p)} is out of bounds (at most ${grouped(SCRYPT_BOUNDS.maxWork)})`;
  return null;
}

interface PhcScrypt { N: number; r: number; p: number; salt: Buffer; key: Buffer }

/**
 * `$scrypt$ln=…,r=…,p=…$salt$hash`: passlib writes ln as log2(N) (ln=16); Kratos writes N itself
 * (ln=16384). No real N is below 32, so a value under 32 is log2(N) and any other is N.
 */
function parsePhcScrypt(h: string): PhcScrypt | string {
  const m = /^\$scrypt\$([^$]+)\$([^$]+)\$([^$]+)$/.exec(h);
  const params = m && parseParams(m[1]);
  if (!m || !params || Object.keys(params).some((k) => !["ln", "r", "p"].includes(k))) return "scrypt hash is not a PHC string ($scrypt$ln=…,r=…,p=…$salt$hash)";
  const ln = intIn(params.ln, 1, 2 ** 30), r = intIn(params.r, 1, 1024), p = intIn(params.p ?? "1", 1, 1024);
  if (ln === undefined) return `scrypt hash: ln=${params.ln} is not a whole number from 1 to 2^30 (log2 of N, or N)`;
  if (r === undefined) return `scrypt hash: r=${params.r} is not a whole number from 1 to 1024`;
  if (p === undefined) return `scrypt hash: p=${params.p} is not a whole number from 1 to 1024`;
  const salt = decodeBase64(m[2]), key = decodeBase64(m[3]);
  if (!salt || salt.length < 8 || salt.length > 128) return "scrypt hash: the salt is not base64 of 8 to 128 bytes";
  if (!key || key.length < 16 || key.length > 128) return "scrypt hash: the hash is not base64 of 16 to 128 bytes";
  return { N: ln < 32 ? 2 ** ln : ln, r, p, salt, key };
}

export const scryptPhc: HashFormat = {
  id: "scrypt",
  matches: (h) => h.startsWith("$scrypt$"),
  check(h) {
    const parsed = parsePhcScrypt(h);
    return typeof parsed === "string" ? parsed : checkScryptCost(parsed.N, parsed.r, parsed.p, "scrypt hash");
  },
  async verify(password, h) {
    const x = parsePhcScrypt(h);
    if (typeof x === "string" || checkScryptCost(x.N, x.r, x.p, "")) return false;
    return sameBytes(await scrypt(password, x.salt, x.key.length, x.N, x.r, x.p), x.key);
  },
};

// better-auth's default: hex(16 random bytes) + ":" + hex(scrypt(NFKC(password), the salt's hex
// text, N=16384, r=16, p=1, 64 bytes)). The parameters are fixed by better-auth, not in the string.
const BETTER_AUTH = /^([0-9a-f]{32}):([0-9a-f]{128})$/;

export const betterAuthScrypt: HashFormat = {
  id: "better-auth-scrypt",
  matches: (h) => BETTER_AUTH.test(h),
  check: (h) => (BETTER_AUTH.test(h) ? null : "better-auth hash is not salt:hash in hex"),
  async verify(password, h) {
    const [, salt, key] = BETTER_AUTH.exec(h)!;
    return sameBytes(await scrypt(password.normalize("NFKC"), Buffer.from(salt, "utf8"), 64, 16384, 16, 1), Buffer.from(key, "hex"));
  },
};

/**
 * Firebase's modified scrypt, in Supabase's serialization, which also carries the project's
 * parameters: `$fbscrypt$v=1,n=<mem cost>,r=<rounds>,p=1,ss=<salt separator>,sk=<signer key>$<salt>$<hash>`
 * (all base64). The hash is AES-256-CTR (zero IV) of the signer key under
 * scrypt(password, salt ‖ salt separator, N=2^n, r, p, 32 bytes).
 */
interface FbScrypt { N: number; r: number; p: number; saltSeparator: Buffer; signerKey: Buffer; salt: Buffer; hash: Buffer }

function parseFbScrypt(h: string): FbScrypt | string {
  const m = /^\$fbscrypt\$([^$]+)\$([^$]+)\$([^$]+)$/.exec(h);
  const params = m && parseParams(m[1]);
  if (!m || !params || Object.keys(params).some((k) => !["v", "n", "r", "p", "ss", "sk"].includes(k)) || params.v !== "1") return "Firebase scrypt hash is not $fbscrypt$v=1,n=…,r=…,p=…,ss=…,sk=…$salt$hash";
  const n = intIn(params.n, 1, 30), r = intIn(params.r, 1, 1024), p = intIn(params.p ?? "1", 1, 1024);
  if (n === undefined) return `Firebase scrypt hash: mem cost n=${params.n} is not a whole number from 1 to 30`;
  if (r === undefined) return `Firebase scrypt hash: rounds r=${params.r} is not a whole number from 1 to 1024`;
  if (p === undefined) return `Firebase scrypt hash: p=${params.p} is not a whole number from 1 to 1024`;
  const saltSeparator = decodeBase64(params.ss ?? ""), signerKey = decodeBase64(params.sk ?? ""), salt = decodeBase64(m[2]), hash = decodeBase64(m[3]);
  if (!saltSeparator) return "Firebase scrypt hash: the salt separator ss is not base64";
  if (!signerKey || signerKey.length < 16 || signerKey.length > 256) return "Firebase scrypt hash: the signer key sk is not base64 of 16 to 256 bytes";
  if (!salt || salt.length < 4 || salt.length > 128) return "Firebase scrypt hash: the salt is not base64 of 4 to 128 bytes";
  if (!hash || hash.length !== signerKey.length) return "Firebase scrypt hash: the hash is not base64 as long as the signer key";
  return { N: 2 ** n, r, p, saltSeparator, signerKey, salt, hash };
}

export const firebaseScrypt: HashFormat = {
  id: "firebase-scrypt",
  matches: (h) => h.startsWith("$fbscrypt$"),
  check(h) {
    const parsed = parseFbScrypt(h);
    return typeof parsed === "string" ? parsed : checkScryptCost(parsed.N, parsed.r, parsed.p, "Firebase scrypt hash");
  },
  async verify(password, h) {
    const x = parseFbScrypt(h);
    if (typeof x === "string" || checkScryptCost(x.N, x.r, x.p, "")) return false;
    const key = await scrypt(password, Buffer.concat([x.salt, x.saltSeparator]), 32, x.N, x.r, x.p);
    const cipher = createCipheriv("aes-256-ctr", key, Buffer.alloc(16));
    return sameBytes(Buffer.concat([cipher.update(x.signerKey), cipher.final()]), x.hash);
  },
};

/** Firebase's per-project parameters (`hash_config { … }` in the console). */
export interface FirebaseHashConfig { signerKey: string; saltSeparator: string; rounds: number; memCost: number }

/** Firebase's export gives passwordHash and salt per user; with the project's config they make one $fbscrypt$ string. */
export function toFbScrypt(passwordHash: string, salt: string, config: FirebaseHashConfig): string {
  return `$fbscrypt$v=1,n=${config.memCost},r=${config.rounds},p=1,ss=${config.saltSeparator},sk=${config.signerKey}$${salt}$${passwordHash}`;
}
