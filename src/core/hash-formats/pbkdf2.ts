import { pbkdf2 as pbkdf2Callback } from "node:crypto";
import { decodeBase64, grouped, intIn, parseParams, sameBytes } from "./encoding.js";
import type { HashFormat } from "./types.js";

/**
 * PBKDF2's digests, with what one sign-in may cost: iterations × blocks (a key longer than the
 * digest takes one block per digest length, each a full run of the iterations), at most about the
 * time of one bcrypt check at cost 14 (docs/moving-in.md, the bounds table). The common tools stay
 * below: Django 6 writes 1,200,000 of SHA-256, OWASP asks 1,300,000 of SHA-1, Keycloak 210,000 of
 * SHA-512, ASP.NET Identity 100,000 of SHA-512.
 */
export const PBKDF2_DIGESTS: Readonly<Record<string, { bytes: number; maxWork: number; name: string }>> = {
  md5: { bytes: 16, maxWork: 2_000_000, name: "HMAC-MD5" },
  sha1: { bytes: 20, maxWork: 1_600_000, name: "HMAC-SHA1" },
  sha224: { bytes: 28, maxWork: 3_000_000, name: "HMAC-SHA224" },
  sha256: { bytes: 32, maxWork: 3_000_000, name: "HMAC-SHA256" },
  sha384: { bytes: 48, maxWork: 1_200_000, name: "HMAC-SHA384" },
  sha512: { bytes: 64, maxWork: 1_200_000, name: "HMAC-SHA512" },
  ripemd160: { bytes: 20, maxWork: 800_000, name: "HMAC-RIPEMD160" },
  // What Kratos' "pbkdf2-sha224" and "pbkdf2-sha384" are (move-in/kratos.ts names them so).
  "sha3-224": { bytes: 28, maxWork: 600_000, name: "HMAC-SHA3-224" },
  "sha3-384": { bytes: 48, maxWork: 600_000, name: "HMAC-SHA3-384" },
};

/** node:crypto's PBKDF2, asynchronous: on libuv's thread pool, never on the event loop. */
export function pbkdf2(password: string | Buffer, salt: Buffer, iterations: number, keylen: number, digest: string): Promise<Buffer> {
  return new Promise((resolve, reject) => pbkdf2Callback(password, salt, iterations, keylen, digest, (err, key) => (err ? reject(err) : resolve(key))));
}

/** A PBKDF2 computation another system stored: its digest (a PBKDF2_DIGESTS key), iterations, salt and the key it derived. */
export interface Pbkdf2Params { digest: string; iterations: number; salt: Buffer; key: Buffer }

/** Why these parameters are refused (naming the one out of bounds), or null. */
export function checkPbkdf2(p: Pbkdf2Params, what: string): string | null {
  const d = PBKDF2_DIGESTS[p.digest];
  if (!d) return `${what}: digest ${p.digest} is not one authsvc computes (${Object.keys(PBKDF2_DIGESTS).join(", ")})`;
  if (p.salt.length < 1 || p.salt.length > 256) return `${what}: the salt is empty or longer than 256 bytes`;
  if (p.key.length < 16 || p.key.length > 256) return `${what}: the hash is shorter than 16 or longer than 256 bytes`;
  const blocks = Math.ceil(p.key.length / d.bytes);
  if (!Number.isSafeInteger(p.iterations) || p.iterations < 1 || p.iterations * blocks > d.maxWork) {
    const per = blocks > 1 ? ` × ${blocks} blocks (a ${p.key.length}-byte key)` : "";
    return `${what}: ${p.iterations} iterations${per} of ${d.name} is out of bounds (at most ${grouped(d.maxWork)}${blocks > 1 ? " iterations × blocks" : ""})`;
  }
  return null;
}

/** Whether `password` (UTF-8) derives the stored key; false for parameters out of bounds (never computed). */
export async function verifyPbkdf2(password: string, p: Pbkdf2Params): Promise<boolean> {
  if (checkPbkdf2(p, "")) return false;
  return sameBytes(await pbkdf2(password, p.salt, p.iterations, p.key.length, p.digest), p.key);
}

function format(id: string, what: string, parse: (h: string) => Pbkdf2Params | string, matches: (h: string) => boolean): HashFormat {
  return {
    id,
    matches,
    check(h) {
      const p = parse(h);
      return typeof p === "string" ? p : checkPbkdf2(p, what);
    },
    async verify(password, h) {
      const p = parse(h);
      return typeof p !== "string" && verifyPbkdf2(password, p);
    },
  };
}

// Django: pbkdf2_sha256$<iterations>$<salt text>$<base64 hash>; the salt is used as its UTF-8 text.
const DJANGO = /^pbkdf2_(sha256|sha1)\$(\d{1,10})\$([^$]{1,256})\$([A-Za-z0-9+/]+={0,2})$/;
export const djangoPbkdf2 = format("django-pbkdf2", "Django PBKDF2 hash", (h) => {
  const m = DJANGO.exec(h);
  const key = m && decodeBase64(m[4]);
  if (!m || !key || key.length !== PBKDF2_DIGESTS[m[1]].bytes) return "Django PBKDF2 hash is not pbkdf2_sha256$<iterations>$<salt>$<hash>";
  return { digest: m[1], iterations: Number(m[2]), salt: Buffer.from(m[3], "utf8"), key };
}, (h) => /^pbkdf2_sha(256|1)\$/.test(h));

/**
 * PHC: $pbkdf2-sha256$<rounds>$<salt>$<hash> as passlib writes it (adapted base64; `$pbkdf2$` is
 * SHA-1), or $pbkdf2-<digest>$i=<rounds>[,l=<length>]$<salt>$<hash> (standard base64) as Kratos and
 * Auth0's import file write it (Auth0: i defaults to 100,000; `l` must be the hash's length).
 */
const PHC = /^\$pbkdf2(?:-([a-z0-9-]+))?\$([^$]+)\$([^$]+)\$([^$]+)$/i;
export const phcPbkdf2 = format("pbkdf2", "PBKDF2 hash", (h) => {
  const m = PHC.exec(h);
  const shape = "PBKDF2 hash is not $pbkdf2-sha256$<iterations>$<salt>$<hash> (or i=<iterations>,l=<length>)";
  if (!m) return shape;
  let iterations = intIn(m[2], 1, 2 ** 31);
  let length: number | undefined;
  if (iterations === undefined) {
    const params = parseParams(m[2]);
    if (!params || Object.keys(params).some((k) => !["i", "l"].includes(k))) return shape;
    iterations = params.i === undefined ? 100_000 : intIn(params.i, 1, 2 ** 31);
    length = params.l === undefined ? undefined : intIn(params.l, 1, 1024);
    if (iterations === undefined) return `PBKDF2 hash: iterations i=${params.i} is not a whole number in range`;
    if (params.l !== undefined && length === undefined) return `PBKDF2 hash: key length l=${params.l} is not a whole number in range`;
  }
  const salt = decodeBase64(m[3]), key = decodeBase64(m[4]);
  if (!salt || !key) return "PBKDF2 hash: the salt or hash is not base64";
  if (length !== undefined && length !== key.length) return `PBKDF2 hash: key length l=${length} is not the hash's ${key.length} bytes`;
  return { digest: (m[1] ?? "sha1").toLowerCase(), iterations, salt, key };
}, (h) => /^\$pbkdf2(-[a-z0-9-]+)?\$/i.test(h));
