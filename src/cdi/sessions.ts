import { timingSafeEqual } from "node:crypto";
import type { CoreContext } from "../core/context.js";
import { adoptMovedRefreshToken, MOVED_REFRESH_TOKEN } from "../core/moved-sessions.js";
import { openSession } from "../core/sessions.js";
import { insertEvent } from "../store/events.js";
import * as kernel from "../store/sessions.js";
import { createSecretToken, hashToken } from "../util/random.js";
import { CdiError } from "./http.js";
import * as store from "./store.js";
import { appPayload, signCdiToken, TokenRefused, verifyCdiToken, type CdiTokenPayload, type SignedCdiToken } from "./tokens.js";

/**
 * SuperTokens sessions through the CDI, kept in the kernel's session store: each is a row of
 * `sessions` (listed, revocable, ended by every security event like any other) with its rotating
 * refresh tokens in `refresh_tokens`, and the CDI's part (payload, data, tenant) in `cdi_sessions`.
 * Rotation follows the core: a refresh answers a child token; the child becomes the session's
 * current token (is promoted) at its first use, a refresh or a verify of the access token that
 * carries `parentRefreshTokenHash1`; from then on the parent, and any sibling, is a stolen token:
 * its use revokes the session (TOKEN_THEFT_DETECTED).
 */

const tokenOut = (t: SignedCdiToken) => ({ token: t.token, expiry: t.expiry, createdTime: t.createdTime });
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const parse = (json: string | null): Record<string, unknown> => (json ? JSON.parse(json) as Record<string, unknown> : {});

function sessionOut(p: CdiTokenPayload) {
  return { handle: p.sessionHandle, userId: p.sub, recipeUserId: p.rsub, userDataInJWT: appPayload(p), tenantId: p.tId };
}

/** A session is live: not revoked, not past its sliding expiry nor its absolute lifetime. */
function isLive(ctx: CoreContext, s: store.CdiSessionRow | undefined, now: number): s is store.CdiSessionRow {
  return !!s && s.revoked_at === null && s.expires_at > now && now < s.created_at + ctx.config.sessionMaxLifetimeMs;
}

export async function createCdiSession(ctx: CoreContext, p: { userId: string; payload: Record<string, unknown>; data: Record<string, unknown>; antiCsrf: boolean; tenantId: string }) {
  const antiCsrf = p.antiCsrf ? createSecretToken() : null;
  const opened = await ctx.store.writeTx(async (tx) => {
    if (!(await kernel.findEmailVerified(tx, p.userId))) return undefined;
    const s = await openSession(tx, ctx, p.userId);
    await store.insertCdiSession(tx, { handle: s.handle, tenant_id: p.tenantId, jwt_payload: JSON.stringify(p.payload), session_data: JSON.stringify(p.data), anti_csrf_token: antiCsrf });
    return s;
  });
  if (!opened) throw new CdiError(400, `Unknown user id: ${p.userId} (authsvc keeps sessions for its own users only)`);
  const at = await signCdiToken(ctx, { sub: opened.primaryUserId, rsub: p.userId, sessionHandle: opened.handle, refreshTokenHash1: opened.hash, antiCsrfToken: antiCsrf ?? undefined, tId: p.tenantId }, p.payload);
  return {
    status: "OK", session: sessionOut(at.payload), accessToken: tokenOut(at),
    refreshToken: { token: opened.refreshToken, expiry: opened.expiresAt, createdTime: at.createdTime },
    ...(antiCsrf ? { antiCsrfToken: antiCsrf } : {}),
  };
}

type Refreshed =
  | { kind: "ok"; s: store.CdiSessionRow; hash: string; expiresAt: number }
  | { kind: "theft"; s: store.CdiSessionRow }
  | { kind: "unauthorised"; message: string };

export async function refreshCdiSession(ctx: CoreContext, p: { refreshToken: string; antiCsrfToken?: string; enableAntiCsrf: boolean }) {
  const usedHash = hashToken(p.refreshToken);
  const child = createSecretToken();
  const childHash = hashToken(child);
  const now = ctx.clock.now();
  const r = await ctx.store.writeTx(async (tx): Promise<Refreshed> => {
    const plausible = p.refreshToken.length <= 512 || MOVED_REFRESH_TOKEN.test(p.refreshToken);
    let row = plausible ? await store.findTokenWithParent(tx, usedHash) : undefined;
    // A session moved in from a SuperTokens core (`users import --from supertokens`): its token
    // becomes ours here (core/moved-sessions.ts), so switching the connectionURI signs no one out.
    if (plausible && !row) {
      await adoptMovedRefreshToken(ctx, tx, p.refreshToken, usedHash, now);
      row = await store.findTokenWithParent(tx, usedHash);
    }
    const s = row ? await store.findCdiSession(tx, row.session_handle) : undefined;
    if (!row || !s || Number(row.expires_at) <= now) return { kind: "unauthorised", message: "session does not exist or has expired" };
    if (s.revoked_at === null && now >= s.created_at + ctx.config.sessionMaxLifetimeMs) {
      await kernel.revokeSession(tx, s.handle, now, "max_lifetime");
      await insertEvent(tx, { at: now, type: "session.revoked", userId: s.primary_user_id ?? s.user_id, data: { sessionHandle: s.handle, reason: "max_lifetime" } });
    }
    if (!isLive(ctx, s, now)) return { kind: "unauthorised", message: "session does not exist or has expired" };
    if (p.enableAntiCsrf && s.anti_csrf_token !== null && (p.antiCsrfToken === undefined || !sameText(p.antiCsrfToken, s.anti_csrf_token))) {
      return { kind: "unauthorised", message: "anti-csrf check failed" };
    }
    const unpromoted = row.rotated_at === null && row.parent_hash !== null && row.parent_found !== null && row.parent_rotated_at === null;
    if (row.rotated_at !== null || (unpromoted && !(await store.promoteToken(tx, usedHash, row.parent_hash!, now)))) {
      await kernel.revokeSession(tx, s.handle, now, "token_theft");
      await insertEvent(tx, { at: now, type: "session.token_theft_detected", userId: s.primary_user_id ?? s.user_id, data: { sessionHandle: s.handle } });
      return { kind: "theft", s };
    }
    const expiresAt = Math.min(now + ctx.config.refreshTokenLifetimeMs, s.created_at + ctx.config.sessionMaxLifetimeMs);
    if (!(await kernel.extendSession(tx, s.handle, expiresAt, now))) return { kind: "unauthorised", message: "session does not exist or has expired" };
    await kernel.insertRefreshToken(tx, { token_hash: childHash, session_handle: s.handle, parent_hash: usedHash, created_at: now, expires_at: expiresAt, rotated_at: null });
    return { kind: "ok", s, hash: childHash, expiresAt };
  });
  if (r.kind === "unauthorised") return { status: "UNAUTHORISED", message: r.message };
  if (r.kind === "theft") {
    ctx.logger.warn("cdi refresh token reuse: session revoked", { userId: r.s.user_id, sessionHandle: r.s.handle });
    return { status: "TOKEN_THEFT_DETECTED", session: { handle: r.s.handle, userId: r.s.primary_user_id ?? r.s.user_id, recipeUserId: r.s.user_id } };
  }
  const s = r.s;
  const at = await signCdiToken(ctx, {
    sub: s.primary_user_id ?? s.user_id, rsub: s.user_id, sessionHandle: s.handle, refreshTokenHash1: r.hash,
    parentRefreshTokenHash1: usedHash, antiCsrfToken: s.anti_csrf_token ?? undefined, tId: s.tenant_id ?? "public",
  }, parse(s.jwt_payload));
  return {
    status: "OK", session: sessionOut(at.payload), accessToken: tokenOut(at),
    refreshToken: { token: child, expiry: r.expiresAt, createdTime: at.createdTime },
    ...(s.anti_csrf_token ? { antiCsrfToken: s.anti_csrf_token } : {}),
  };
}

/**
 * The SDK asks only when it cannot decide alone: `checkDatabase`, or a token fresh from a refresh
 * (it carries `parentRefreshTokenHash1`): its refresh token is promoted and a token without the
 * parent is answered.
 */
export async function verifyCdiSession(ctx: CoreContext, p: { accessToken: string; doAntiCsrfCheck: boolean; antiCsrfToken?: string; checkDatabase: boolean }) {
  let claims: CdiTokenPayload;
  try {
    claims = await verifyCdiToken(ctx, p.accessToken);
  } catch (err) {
    if (err instanceof TokenRefused) return { status: err.status, message: err.message };
    throw err;
  }
  if (p.doAntiCsrfCheck && claims.antiCsrfToken !== undefined && (p.antiCsrfToken === undefined || !sameText(p.antiCsrfToken, String(claims.antiCsrfToken)))) {
    return { status: "TRY_REFRESH_TOKEN", message: "anti-csrf check failed" };
  }
  const now = ctx.clock.now();
  if (claims.parentRefreshTokenHash1 !== undefined) {
    const ok = await ctx.store.writeTx(async (tx) => {
      const s = await store.findCdiSession(tx, claims.sessionHandle);
      const row = await store.findTokenWithParent(tx, claims.refreshTokenHash1);
      if (!isLive(ctx, s, now) || !row || row.session_handle !== s.handle || row.rotated_at !== null) return false;
      if (row.parent_hash === claims.parentRefreshTokenHash1 && row.parent_found !== null && row.parent_rotated_at === null) {
        return store.promoteToken(tx, claims.refreshTokenHash1, row.parent_hash, now);
      }
      return true;
    });
    if (!ok) return { status: "UNAUTHORISED", message: "session does not exist or has been revoked" };
    const { parentRefreshTokenHash1: _parent, iat: _iat, ...rest } = claims;
    const at = await signCdiToken(ctx, { ...rest, antiCsrfToken: claims.antiCsrfToken }, appPayload(claims));
    return { status: "OK", session: { ...sessionOut(at.payload), expiryTime: at.expiry }, accessToken: tokenOut(at) };
  }
  if (p.checkDatabase && !isLive(ctx, await store.findCdiSession(ctx.store.db, claims.sessionHandle), now)) {
    return { status: "UNAUTHORISED", message: "session does not exist or has been revoked" };
  }
  return { status: "OK", session: { ...sessionOut(claims), expiryTime: claims.exp * 1000 } };
}

/** A new access token with a new app payload (or the stored one), same session, same expiry; the payload is stored. */
export async function regenerateCdiToken(ctx: CoreContext, p: { accessToken: string; payload?: Record<string, unknown> }) {
  let claims: CdiTokenPayload;
  try {
    claims = await verifyCdiToken(ctx, p.accessToken, { allowExpired: true });
  } catch (err) {
    if (err instanceof TokenRefused) return { status: "UNAUTHORISED", message: err.message };
    throw err;
  }
  const now = ctx.clock.now();
  const s = await ctx.store.writeTx(async (tx) => {
    const s = await store.findCdiSession(tx, claims.sessionHandle);
    if (!isLive(ctx, s, now)) return undefined;
    if (p.payload !== undefined) await store.updateCdiSession(tx, s.handle, { jwt_payload: JSON.stringify(p.payload) });
    return s;
  });
  if (!s) return { status: "UNAUTHORISED", message: "session does not exist or has been revoked" };
  const app = p.payload ?? parse(s.jwt_payload);
  const { iat: _iat, ...rest } = claims;
  const at = await signCdiToken(ctx, rest, app);
  return { status: "OK", session: sessionOut(at.payload), accessToken: tokenOut(at) };
}
