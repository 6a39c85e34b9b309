import { pbkdf2 as pbkdf2Callback } from "node:crypto";
import { decodeBase64, intIn, parseParams, sameBytes } from "./encoding.js";
import type { HashFormat } from "./types.js";

/** At most this many iterations (Django 5's default is 1,000,000 of SHA-256: about half a second of one thread). */
export const MAX_PBKDF2_ITERATIONS = 2_000_000;
const DIGESTS: Record<string, { digest: string; bytes: number }> = {
  sha1: { digest: "sha1", bytes: 20 }, sha256: { digest: "sha256", bytes: 32 }, sha512: { digest: "sha512", bytes: 64 },
};

/** node:crypto's PBKDF2, asynchronous: on libuv's thread pool, never on the event loop. */
function pbkdf2(password: string, salt: Buffer, iterations: number, keylen: number, digest: string): Promise<Buffer> {
  return new Promise((resolve, reject) => pbkdf2Callback(password, salt, iterations, keylen, digest, (err, key) => (err ? reject(err) : resolve(key))));
}

interface Parsed { digest: string; iterations: number; salt: Buffer; key: Buffer }

function bounds(p: Parsed, what: string): string | null {
  if (p.iterations < 1 || p.iterations > MAX_PBKDF2_ITERATIONS) return `${what}: ${p.iterations} iterations is out of bounds (1 to ${MAX_PBKDF2_ITERATIONS})`;
  if (p.salt.length < 1 || p.salt.length > 256) return `${what}: the salt is empty or longer than 256 bytes`;
  if (p.key.length < 16 || p.key.length > 128) return `${what}: the hash is shorter than 16 or longer than 128 bytes`;
  return null;
}

function format(id: string, what: string, parse: (h: string) => Parsed | undefined, matches: (h: string) => boolean, shape: string): HashFormat {
  return {
    id,
    matches,
    check(h) {
      const p = parse(h);
      return p ? bounds(p, what) : `${what} is not ${shape}`;
    },
    async verify(password, h) {
      const p = parse(h);
      if (!p || bounds(p, what)) return false;
      return sameBytes(await pbkdf2(password, p.salt, p.iterations, p.key.length, p.digest), p.key);
    },
  };
}

// Django: pbkdf2_sha256$<iterations>$<salt text>$<base64 hash>; the salt is used as its UTF-8 text.
const DJANGO = /^pbkdf2_(sha256|sha1)\$(\d{1,10})\$([^$]{1,256})\$([A-Za-z0-9+/]+={0,2})$/;
export const djangoPbkdf2 = format("django-pbkdf2", "Django PBKDF2 hash", (h) => {
  const m = DJANGO.exec(h);
  const key = m && decodeBase64(m[4]);
  return m && key && key.length === DIGESTS[m[1]].bytes ? { digest: m[1], iterations: Number(m[2]), salt: Buffer.from(m[3], "utf8"), key } : undefined;
}, (h) => /^pbkdf2_sha(256|1)\$/.test(h), "pbkdf2_sha256$<iterations>$<salt>$<hash>");

// PHC: $pbkdf2-sha256$<rounds>$<salt>$<hash> as passlib writes it (adapted base64), or
// $pbkdf2-sha256$i=<rounds>[,l=<length>]$<salt>$<hash> (standard base64), which Keycloak's credentials are turned into.
const PHC = /^\$pbkdf2(?:-(sha256|sha512|sha1))?\$([^$]+)\$([^$]+)\$([^$]+)$/;
export const phcPbkdf2 = format("pbkdf2", "PBKDF2 hash", (h) => {
  const m = PHC.exec(h);
  if (!m) return undefined;
  let iterations = intIn(m[2], 1, 2 ** 31);
  if (iterations === undefined) {
    const params = parseParams(m[2]);
    if (!params || Object.keys(params).some((k) => !["i", "l"].includes(k))) return undefined;
    iterations = intIn(params.i, 1, 2 ** 31);
  }
  const salt = decodeBase64(m[3]), key = decodeBase64(m[4]);
  return iterations !== undefined && salt && key ? { digest: m[1] ?? "sha1", iterations, salt, key } : undefined;
}, (h) => /^\$pbkdf2(-sha(256|512|1))?\$/.test(h), "$pbkdf2-sha256$<iterations>$<salt>$<hash>");

const KEYCLOAK_DIGEST: Record<string, string> = { pbkdf2: "sha1", "pbkdf2-sha256": "sha256", "pbkdf2-sha512": "sha512" };

/**
 * Keycloak's password credential, as its realm export writes it ({"type":"password",
 * "secretData":"{\"value\":…,\"salt\":…}", "credentialData":"{\"hashIterations\":…,\"algorithm\":…}"})
 * or flat ({algorithm, hashIterations, salt, value}), as the PHC string it is stored as. Returns
 * the string, or why the credential is refused.
 */
export function keycloakCredentialToPhc(credential: Record<string, unknown>): { hash: string } | { refused: string } {
  let fields: Record<string, unknown> = credential;
  try {
    if (typeof credential.secretData === "string" || typeof credential.credentialData === "string") {
      fields = { ...JSON.parse(String(credential.secretData)), ...JSON.parse(String(credential.credentialData)) };
    }
  } catch {
    return { refused: "Keycloak credential's secretData or credentialData is not JSON" };
  }
  const digest = KEYCLOAK_DIGEST[String(fields.algorithm)];
  if (!digest) return { refused: `Keycloak credential algorithm ${JSON.stringify(fields.algorithm)} is not one of ${Object.keys(KEYCLOAK_DIGEST).join(", ")}` };
  if (!Number.isSafeInteger(fields.hashIterations)) return { refused: "Keycloak credential's hashIterations is not a whole number" };
  if (typeof fields.salt !== "string" || typeof fields.value !== "string" || !decodeBase64(fields.salt) || !decodeBase64(fields.value)) return { refused: "Keycloak credential's salt or value is not base64" };
  return { hash: `$pbkdf2-${digest}$i=${fields.hashIterations as number}$${fields.salt.replace(/=+$/, "")}$${fields.value.replace(/=+$/, "")}` };
}
