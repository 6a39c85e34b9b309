import { createDecipheriv, createHash, pbkdf2Sync } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import { insertRefreshToken } from "../store/sessions.js";
import { deleteMovedRefreshToken, findMovedRefreshToken, listMovedRefreshKeys } from "../store/moved-sessions.js";
import { openText, sealText } from "../util/sealed-text.js";
import type { CoreContext } from "./context.js";

/**
 * Sessions moved in from a SuperTokens core (`users import --from supertokens`): its users keep
 * their refresh tokens. The core keeps SHA-256(SHA-256(token)) per session (hex, as we keep
 * SHA-256(token)), so a token it issued is found by hashing ours once more. A token from the
 * core's last refresh that the core had not confirmed yet (its access token never came back) is
 * not that hash: it names its parent only inside the token, encrypted with the core's refresh
 * token key (AES-256-GCM under PBKDF2-SHA512(key, iv, 100)), which the import keeps sealed.
 */

/** The core's refresh tokens: base64(iv ‖ ciphertext ‖ tag) "." nonce (64 hex) ".V2". */
export const MOVED_REFRESH_TOKEN = /^([A-Za-z0-9+/]{40,4096}={0,2})\.([0-9a-f]{64})\.V2$/;

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");
const sealKey = (secret: string) => ({ secret, purpose: "moved-refresh-key v1" });

/** The key as stored: sealed when the server has a secret (the id is the associated data). */
export function sealMovedRefreshKey(key: string, secret: string | undefined, id: string): string {
  return secret ? sealText(key, sealKey(secret), id) : key;
}

function openMovedRefreshKey(stored: string, secret: string | undefined, id: string): string | undefined {
  if (!stored.startsWith("enc:v1:")) return secret ? undefined : stored;
  if (!secret) return undefined;
  try { return openText(stored, sealKey(secret), id); } catch { return undefined; }
}

/** The core's payload of one of its refresh tokens, when `key` decrypts it and its nonce matches. */
export function readMovedRefreshToken(token: string, key: string): { sessionHandle: string; parentRefreshTokenHash1?: string } | undefined {
  const m = MOVED_REFRESH_TOKEN.exec(token);
  if (!m) return undefined;
  const data = Buffer.from(m[1], "base64");
  if (data.length < 12 + 16 + 2) return undefined;
  const iv = data.subarray(0, 12), tag = data.subarray(data.length - 16), ct = data.subarray(12, data.length - 16);
  try {
    const d = createDecipheriv("aes-256-gcm", pbkdf2Sync(key, iv, 100, 32, "sha512"), iv);
    d.setAuthTag(tag);
    const p = JSON.parse(Buffer.concat([d.update(ct), d.final()]).toString("utf8")) as Record<string, unknown>;
    if (typeof p.sessionHandle !== "string" || typeof p.userId !== "string" || p.nonce !== m[2]) return undefined;
    return { sessionHandle: p.sessionHandle, parentRefreshTokenHash1: typeof p.parentRefreshTokenHash1 === "string" ? p.parentRefreshTokenHash1 : undefined };
  } catch {
    return undefined;
  }
}

/**
 * Inside the refresh transaction, for a token we do not know: when it is a moved session's token
 * (or the unconfirmed child of one), it becomes that session's live refresh token (the moved row
 * is deleted, so the core's token works once, like any of ours) and the refresh goes on as usual.
 * The caller reads its refresh token again afterwards, whatever happened here.
 */
export async function adoptMovedRefreshToken(ctx: CoreContext, tx: Kysely<DB>, token: string, hash1: string, now: number): Promise<void> {
  let hash2 = sha256(hash1);
  let hit = await findMovedRefreshToken(tx, hash2);
  if (!hit && MOVED_REFRESH_TOKEN.test(token)) {
    for (const k of await listMovedRefreshKeys(tx)) {
      const key = openMovedRefreshKey(k.secret_enc, ctx.config.secret, k.id);
      const payload = key === undefined ? undefined : readMovedRefreshToken(token, key);
      if (!payload?.parentRefreshTokenHash1) continue;
      const parent = await findMovedRefreshToken(tx, sha256(payload.parentRefreshTokenHash1));
      if (parent && parent.session_handle === payload.sessionHandle && parent.key_id === k.id) {
        hash2 = sha256(payload.parentRefreshTokenHash1);
        hit = parent;
        break;
      }
    }
  }
  if (!hit || hit.expires_at <= now) return;
  // Taken by a refresh at the same moment (two tabs): it committed the token as ours, which the
  // caller reads now and answers by its grace window, as for two tabs with one of our tokens.
  if (!(await deleteMovedRefreshToken(tx, hash2))) return;
  await insertRefreshToken(tx, { token_hash: hash1, session_handle: hit.session_handle, parent_hash: null, created_at: now, expires_at: hit.expires_at, rotated_at: null });
}
