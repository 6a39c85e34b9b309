import { passwordHasher } from "../hash-pool.js";
import { checkBcrypt } from "./bcrypt.js";
import { DIGESTS, digestOf, hmacOf } from "./digests.js";
import { decodeAs, sameBytes } from "./encoding.js";
import { checkScryptCost, scrypt } from "./scrypt.js";
import type { HashFormat } from "./types.js";

/**
 * Auth0's bulk import file's `custom_password_hash` (the object its users-imports job takes:
 * algorithm, hash {value, encoding, digest, key}, salt {value, encoding, position}, password
 * {encoding}, keylen, cost, blockSize, parallelization). An Argon2, PBKDF2, LDAP or plain bcrypt
 * hash is a string another format reads already, kept as it is (auth0HashToStored); the others
 * (md4, md5, sha1, sha256, sha512 and hmac over salt ‖ password or password ‖ salt, scrypt, bcrypt
 * with a salt) are kept as `$auth0$` followed by the object as JSON, with only its known fields.
 */
type Encoding = "hex" | "base64" | "utf8";
const ENCODINGS: readonly string[] = ["hex", "base64", "utf8"];
const PASSWORD_ENCODINGS: readonly string[] = ["ascii", "utf8", "utf16le", "ucs2", "latin1", "binary"];
const SALTED: readonly string[] = ["md4", "md5", "sha1", "sha256", "sha512"];
const AS_IS: Readonly<Record<string, RegExp>> = { argon2: /^\$argon2(id|i|d)\$/, pbkdf2: /^\$pbkdf2(-[a-z0-9-]+)?\$/i, ldap: /^\{[A-Za-z0-9]+\}/, bcrypt: /^\$2[aby]\$/ };
const PREFIX = "$auth0$";
const MAX_TEXT = 1024;

interface Parsed {
  algorithm: string; hash: Buffer; bcrypt?: string; digest?: string; key?: Buffer;
  salt: Buffer; saltFirst: boolean; passwordEncoding: BufferEncoding;
  keylen?: number; N?: number; r?: number; p?: number;
}

const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === "object" && !Array.isArray(v) ? v as Record<string, unknown> : undefined);

/** Reads `{value, encoding}` (`encoding` defaulting to `fallback`), or why not. */
function encoded(v: unknown, where: string, fallback: Encoding | undefined, allowed: readonly string[] = ENCODINGS): Buffer | string {
  const o = obj(v);
  if (!o || typeof o.value !== "string" || o.value.length === 0 || o.value.length > MAX_TEXT) return `${where}.value is not a string of 1 to ${MAX_TEXT} characters`;
  const encoding = o.encoding ?? fallback;
  if (typeof encoding !== "string" || !allowed.includes(encoding)) return `${where}.encoding must be ${allowed.join(" or ")}`;
  return decodeAs(o.value, encoding as Encoding) ?? `${where}.value is not ${encoding}`;
}

/** The object's parts, checked; or why it is refused (naming the field). */
function parse(o: Record<string, unknown>): Parsed | string {
  const algorithm = String(o.algorithm);
  const hashObj = obj(o.hash);
  if (!hashObj) return "custom_password_hash.hash is not an object";
  const saltObj = o.salt === undefined ? undefined : obj(o.salt);
  if (o.salt !== undefined && !saltObj) return "custom_password_hash.salt is not an object";
  const salt = saltObj ? encoded(saltObj, "custom_password_hash.salt", "utf8") : Buffer.alloc(0);
  if (typeof salt === "string") return salt;
  const position = saltObj?.position ?? "prefix";
  if (position !== "prefix" && position !== "suffix") return "custom_password_hash.salt.position must be prefix or suffix";
  const pe = obj(o.password)?.encoding ?? "utf8";
  if (typeof pe !== "string" || !PASSWORD_ENCODINGS.includes(pe)) return `custom_password_hash.password.encoding must be one of ${PASSWORD_ENCODINGS.join(", ")}`;
  const base = { algorithm, salt, saltFirst: position === "prefix", passwordEncoding: pe as BufferEncoding };
  if (algorithm === "bcrypt") {
    const value = String(hashObj.value);
    const why = checkBcrypt(value, "custom_password_hash (bcrypt) hash.value");
    if (why) return why;
    if ((salt.length > 0 && saltObj?.encoding !== undefined && saltObj.encoding !== "utf8") || pe !== "utf8") return "custom_password_hash (bcrypt): a salt and the password must be utf8";
    return { ...base, hash: Buffer.alloc(0), bcrypt: value };
  }
  const hash = encoded(hashObj, "custom_password_hash.hash", undefined, ["hex", "base64"]);
  if (typeof hash === "string") return hash;
  if (SALTED.includes(algorithm)) return { ...base, hash };
  if (algorithm === "hmac") {
    const digest = hashObj.digest;
    if (typeof digest !== "string" || !DIGESTS.includes(digest)) return `custom_password_hash (hmac): hash.digest must be one of ${DIGESTS.join(", ")}`;
    const key = encoded(hashObj.key, "custom_password_hash.hash.key", "utf8");
    return typeof key === "string" ? key : { ...base, hash, digest, key };
  }
  if (algorithm === "scrypt") {
    const keylen = o.keylen, N = o.cost ?? 16384, r = o.blockSize ?? 8, p = o.parallelization ?? 1;
    if (!Number.isSafeInteger(keylen) || (keylen as number) < 8 || (keylen as number) > 256) return `custom_password_hash (scrypt): keylen ${JSON.stringify(keylen)} is not a whole number from 8 to 256`;
    if (hash.length !== keylen) return `custom_password_hash (scrypt): the hash is ${hash.length} bytes, not keylen ${keylen as number}`;
    for (const [name, v] of [["cost", N], ["blockSize", r], ["parallelization", p]] as const) {
      if (!Number.isSafeInteger(v) || (v as number) < 1) return `custom_password_hash (scrypt): ${name} ${JSON.stringify(v)} is not a whole number above 0`;
    }
    const why = checkScryptCost(N as number, r as number, p as number, "custom_password_hash (scrypt)");
    return why ?? { ...base, hash, keylen: keylen as number, N: N as number, r: r as number, p: p as number };
  }
  return `custom_password_hash.algorithm ${JSON.stringify(o.algorithm)} is not one of argon2, bcrypt, hmac, ldap, md4, md5, sha1, sha256, sha512, pbkdf2, scrypt`;
}

/** The object with only the fields parse reads, so what is stored says nothing else. */
function known(o: Record<string, unknown>): Record<string, unknown> {
  const h = obj(o.hash)!, s = obj(o.salt), k = obj(h.key), pw = obj(o.password);
  const pick = (x: Record<string, unknown> | undefined, keys: string[]) => x && Object.fromEntries(keys.filter((key) => x[key] !== undefined).map((key) => [key, x[key]]));
  const out = { algorithm: o.algorithm, hash: { ...pick(h, ["value", "encoding", "digest"]), ...(k ? { key: pick(k, ["value", "encoding"]) } : {}) }, salt: pick(s, ["value", "encoding", "position"]), password: pick(pw, ["encoding"]), keylen: o.keylen, cost: o.cost, blockSize: o.blockSize, parallelization: o.parallelization };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

/**
 * A custom_password_hash as the string authsvc stores: the hash itself for Argon2, PBKDF2, LDAP
 * and bcrypt without a salt (their formats check them), else `$auth0$` + JSON. Or why it is refused.
 */
export function auth0HashToStored(o: Record<string, unknown>): { hash: string } | { refused: string } {
  const algorithm = String(o.algorithm), hashObj = obj(o.hash);
  const pattern = AS_IS[algorithm];
  if (pattern && hashObj && typeof hashObj.value === "string" && (algorithm !== "bcrypt" || (o.salt === undefined && o.password === undefined))) {
    if (!pattern.test(hashObj.value)) return { refused: `custom_password_hash (${algorithm}): hash.value is not ${algorithm === "ldap" ? "an RFC 2307 {SCHEME}… string" : `a ${algorithm} string`}` };
    if (algorithm !== "bcrypt" && o.salt !== undefined) return { refused: `custom_password_hash (${algorithm}): salt is not allowed (the hash carries its own)` };
    return { hash: hashObj.value };
  }
  const parsed = parse(o);
  return typeof parsed === "string" ? { refused: parsed } : { hash: PREFIX + JSON.stringify(known(o)) };
}

function parseStored(h: string): Parsed | string {
  // Its fields are at most MAX_TEXT each: a longer string carries something else, read at every sign-in.
  if (h.length > 8 * MAX_TEXT) return `$auth0$ hash is longer than ${8 * MAX_TEXT} characters`;
  let o: unknown;
  try { o = JSON.parse(h.slice(PREFIX.length)); } catch { return "$auth0$ hash is not followed by JSON"; }
  return obj(o) ? parse(obj(o)!) : "$auth0$ hash is not followed by a JSON object";
}

/** Auth0's custom password hashes kept as `$auth0$` + JSON (auth0HashToStored). */
export const auth0Custom: HashFormat = {
  id: "auth0-custom",
  matches: (h) => h.startsWith(PREFIX),
  check: (h) => {
    const p = parseStored(h);
    return typeof p === "string" ? p : null;
  },
  async verify(password, h) {
    const p = parseStored(h);
    if (typeof p === "string") return false;
    const pw = Buffer.from(password, p.passwordEncoding);
    const message = p.saltFirst ? Buffer.concat([p.salt, pw]) : Buffer.concat([pw, p.salt]);
    if (p.bcrypt) return passwordHasher().verify(message.toString("utf8"), p.bcrypt);
    if (p.algorithm === "hmac") return sameBytes(await hmacOf(p.digest!, p.key!, message), p.hash);
    if (p.algorithm === "scrypt") return sameBytes(await scrypt(pw, p.salt, p.keylen!, p.N!, p.r!, p.p!), p.hash);
    return sameBytes(await digestOf(p.algorithm, message), p.hash);
  },
};
