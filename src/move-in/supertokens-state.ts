import { createPublicKey, type JsonWebKey } from "node:crypto";
import type { CoreContext } from "../core/context.js";
import { sealMovedRefreshKey } from "../core/moved-sessions.js";
import { encryptPrivateJwk } from "../core/signing-keys.js";
import { insertRole, insertUserRole } from "../roles/store.js";
import { insertEvent } from "../store/events.js";
import { insertMovedRefreshKey, insertMovedRefreshTokens } from "../store/moved-sessions.js";
import { insertSigningKey, listSigningKeys, type SigningKeyRow } from "../store/signing-keys.js";
import { findExistingUserIds } from "../store/user-import.js";
import { MoveInError } from "./common.js";
import { hasTable } from "./supertokens-db.js";

type Q = <R>(text: string) => Promise<R[]>;
interface SessionRow { session_handle: string; user_id: string; refresh_token_hash_2: string; expires_at: string; created_at_time: string }

/**
 * What moves with the users from a SuperTokens core, so nobody is signed out (one transaction,
 * idempotent: what is here already is left as it is):
 * - roles and who has them (user_roles);
 * - the access-token signing keys (session_access_token_signing_keys, kid d-<created_at_time>, and
 *   the RS256 keys of jwt_signing_keys, kid = key_id), "pub|priv" (older cores: "pub;priv") as
 *   base64 X.509 / PKCS#8: published in our JWKS and verifying the core's tokens until they expire
 *   (they never sign);
 * - the refresh token key (key_value refresh_token_key), sealed, and every live session
 *   (session_info) with its refresh token hash: the SDK's next refresh works (core/moved-sessions.ts).
 */
export async function moveSupertokensState(ctx: CoreContext, q: Q, opts: { dryRun: boolean }): Promise<string[]> {
  const now = ctx.clock.now();
  const roles = await q<{ user_id: string; role: string }>("select distinct user_id, role from user_roles where app_id = 'public' order by user_id, role");
  const keys: Array<{ kid: string; value: string; created: number }> = [];
  for (const k of await q<{ created_at_time: string; value: string }>("select created_at_time, value from session_access_token_signing_keys where app_id = 'public'")) {
    keys.push({ kid: `d-${k.created_at_time}`, value: k.value, created: Number(k.created_at_time) });
  }
  if (await hasTable(q, "jwt_signing_keys")) {
    for (const k of await q<{ key_id: string; key_string: string; created_at: string | null }>("select key_id, key_string, created_at from jwt_signing_keys where app_id = 'public' and algorithm = 'RS256'")) {
      keys.push({ kid: k.key_id, value: k.key_string, created: Number(k.created_at ?? now) });
    }
  }
  const refreshKey = (await q<{ value: string; created_at_time: string | null }>("select value, created_at_time from key_value where app_id = 'public' and tenant_id = 'public' and name = 'refresh_token_key'"))[0];
  const sessions = await q<SessionRow>(`select session_handle, user_id, refresh_token_hash_2, expires_at, created_at_time from session_info where app_id = 'public' and expires_at > ${Math.trunc(now)}`);

  return ctx.store.writeTx(async (tx) => {
    const ids = [...new Set([...roles.map((r) => r.user_id), ...sessions.map((s) => s.user_id)])];
    // A dry run has written no user yet: it counts what belongs to every user it would create.
    const users = opts.dryRun ? new Set(ids) : await findExistingUserIds(tx, ids);
    const here = new Set((await listSigningKeys(tx)).map((k) => k.kid));
    const newKeys = keys.filter((k) => !here.has(k.kid)).map((k) => toKeyRow(ctx, k, now));
    const known = new Set((await tx.selectFrom("sessions").select("handle").where("handle", "in", sessions.length ? sessions.map((s) => s.session_handle) : [""]).execute()).map((s) => s.handle));
    const newSessions = sessions.filter((s) => users.has(s.user_id) && !known.has(s.session_handle));
    const ownedRoles = roles.filter((r) => users.has(r.user_id));
    const keyId = refreshKey ? `supertokens-${refreshKey.created_at_time ?? 0}` : null;
    const verb = opts.dryRun ? "would move" : "moved";
    const lines = [
      `${verb} ${ownedRoles.length} role assignment(s) (${new Set(ownedRoles.map((r) => r.role)).size} role(s))`,
      `${verb} ${newKeys.length} access-token signing key(s) (${keys.length - newKeys.length} here already): tokens the core issued verify until they expire`,
      `${verb} ${newSessions.length} live session(s) (${sessions.length - newSessions.length} here already or of users not imported)${refreshKey ? "" : "; no refresh token key in key_value, so a token from a refresh the core had not confirmed yet will not refresh"}`,
    ];
    if (opts.dryRun) return lines;
    for (const role of new Set(ownedRoles.map((r) => r.role))) await insertRole(tx, role, now);
    for (const r of ownedRoles) await insertUserRole(tx, r.user_id, r.role, now);
    for (const row of newKeys) await insertSigningKey(tx, row);
    if (refreshKey && keyId) await insertMovedRefreshKey(tx, { id: keyId, secret_enc: sealMovedRefreshKey(refreshKey.value, ctx.config.secret, keyId), created_at: Number(refreshKey.created_at_time ?? now) });
    for (let i = 0; i < newSessions.length; i += 1000) {
      const batch = newSessions.slice(i, i + 1000);
      await tx.insertInto("sessions").values(batch.map((s) => ({ handle: s.session_handle, user_id: s.user_id, created_at: Number(s.created_at_time), expires_at: Number(s.expires_at), last_refreshed_at: null, revoked_at: null, revoke_reason: null }))).execute();
      await insertMovedRefreshTokens(tx, batch.map((s) => ({ token_hash2: s.refresh_token_hash_2, session_handle: s.session_handle, key_id: keyId })));
    }
    await insertEvent(tx, { at: now, type: "users.moved_state", userId: null, data: { source: "supertokens", roles: ownedRoles.length, signingKeys: newKeys.length, sessions: newSessions.length } });
    return lines;
  });
}

/**
 * A core's key pair as our signing_keys row: retired from the start and marked moved, so it only
 * verifies. Its private half stays behind (an empty JWK, sealed like ours): we never sign with it.
 */
function toKeyRow(ctx: CoreContext, k: { kid: string; value: string; created: number }, now: number): SigningKeyRow {
  let jwk: JsonWebKey;
  try {
    jwk = createPublicKey({ key: Buffer.from(k.value.split(/[|;]/)[0], "base64"), format: "der", type: "spki" }).export({ format: "jwk" });
  } catch (err) {
    throw new MoveInError(`signing key ${k.kid}: its public key cannot be read (${(err as Error).message})`);
  }
  if (jwk.kty !== "RSA") throw new MoveInError(`signing key ${k.kid} is not an RSA key`);
  return { kid: k.kid, alg: "RS256", created_at: k.created, retired_at: now, public_jwk: JSON.stringify({ kty: jwk.kty, n: jwk.n, e: jwk.e }), private_jwk: encryptPrivateJwk("{}", ctx.config.secret, k.kid), moved_from: "supertokens" };
}
