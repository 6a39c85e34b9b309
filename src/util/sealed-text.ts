import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Secrets the server must read back (signing keys, webhook signing secrets) at rest: AES-256-GCM
 * under a key derived from the server secret (AUTHSVC_SECRET) for one purpose, with the row's id as
 * associated data so a ciphertext cannot be moved to another row or used for another purpose.
 */
const PREFIX = "enc:v1:";

export interface SealKey { secret: string; purpose: string }

const derive = (k: SealKey) => Buffer.from(hkdfSync("sha256", k.secret, "authsvc", k.purpose, 32));

/** True when `stored` is a sealed text (as opposed to a plain one from before a secret was set). */
export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export function sealText(text: string, key: SealKey, aad: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derive(key), iv).setAAD(Buffer.from(aad));
  const ct = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return PREFIX + [iv, ct, cipher.getAuthTag()].map((b) => b.toString("base64url")).join(".");
}

/** The text of a sealed value; throws when the secret, purpose or row is not the one it was sealed with. */
export function openText(stored: string, key: SealKey, aad: string): string {
  const [iv, ct, tag] = stored.slice(PREFIX.length).split(".").map((s) => Buffer.from(s, "base64url"));
  const d = createDecipheriv("aes-256-gcm", derive(key), iv).setAAD(Buffer.from(aad));
  d.setAuthTag(tag);
  return Buffer.concat([d.update(ct), d.final()]).toString("utf8");
}
