import type { Kysely } from "kysely";
import * as repo from "../store/sessions.js";
import { insertEvent } from "../store/events.js";
import type { DB } from "../store/schema.js";
import { createId, createSecretToken, hashToken } from "../util/random.js";
import { signAccessToken, type AccessTokenPayload, type SignedAccessToken } from "./access-tokens.js";
import type { CoreContext } from "./context.js";
import { claimsOf, computeClaims, type FactorId } from "./claims.js";
import { AuthError } from "./errors.js";
import { assertSignInAllowed } from "./login-policy.js";
import { assertMayStartSession } from "./person-gates.js";
import { adoptMovedRefreshToken, MOVED_REFRESH_TOKEN } from "./moved-sessions.js";

/** A freshly issued token pair. */
export interface SessionTokens {
  userId: string;
  sessionHandle: string;
  accessToken: string;
  accessTokenPayload: AccessTokenPayload;
  /** ms */
  accessTokenExpiresAt: number;
  refreshToken: string;
  /** ms */
  refreshTokenExpiresAt: number;
}

const unauthorised = () => new AuthError("UNAUTHORISED", "unauthorised", { clearTokens: true });
// Our refresh tokens are 43 base64url characters; anything far off is refused without a query.
const REFRESH_TOKEN = /^[A-Za-z0-9_-]{16,256}$/;

/** Where a new session's sign-in proved itself and came from (`createSession`, `openSession`). */
export interface SessionStart {
  /** How the sign-in was proven (the claim providers see it, e.g. for `st-mfa`). */
  factor?: FactorId;
  /** Where it came from (IP, User-Agent), kept for the user's own list of sessions ("My account"). */
  client?: { ip?: string; userAgent?: string };
  /**
   * Someone else acts in it (a support session: an admin as the person): kept on the session and
   * put in every access token as RFC 8693's `act` claim. Such a session is not counted against the
   * person's cap, and the rooms' session-opened work (a new device's mail) does not run.
   */
  actor?: SessionActor;
  /** The fixed time it ends, whatever its refreshes (epoch ms): no token of it outlives this. */
  endsAt?: number;
}

/** Who acts in a session that is not the person's own (the `act` claim): an id such as `admin:<id>`, their address, why. */
export interface SessionActor { sub: string; email: string; reason: string }

/** The access-token claim naming who acts in a session someone else opened (RFC 8693 §4.1). */
export const ACTOR_CLAIM = "act";

/** The status string of the 403 a support session gets where only the person may act (README, API). */
export const SUPPORT_SESSION_REFUSED = "SUPPORT_SESSION_REFUSED";

/** The refusal of a change only the person may make, in a session someone else acts in (http/guard.ts, core/login-policy.ts). */
export const supportSessionRefusal = () => new AuthError("FORBIDDEN",
  "This is a support session: an admin acting as the person cannot change their password, address, second factors, sign-in methods or connected apps.",
  { status: SUPPORT_SESSION_REFUSED });

/** The actor a session row keeps (JSON), or undefined for a person's own session. */
export function actorOf(stored: string | null | undefined): SessionActor | undefined {
  if (!stored) return undefined;
  try {
    const a = JSON.parse(stored) as SessionActor;
    return typeof a?.sub === "string" ? a : undefined;
  } catch {
    return undefined;
  }
}

/** The access token's `exp` (seconds) for a session that ends at `endsAt`: never after it. */
const expFor = (ctx: CoreContext, now: number, endsAt: number | null | undefined) =>
  endsAt == null ? undefined : Math.floor(Math.min(now + ctx.config.accessTokenLifetimeMs, endsAt) / 1000);

/** A session written in a transaction whose access token is not signed yet (`issueSession`, after the commit). */
export interface OpenedSession {
  userId: string; primaryUserId: string; handle: string; refreshToken: string; hash: string; expiresAt: number;
  verified: boolean; claims: Record<string, unknown>;
  /** The fixed end of a session someone else acts in (SessionStart.endsAt). */
  endsAt?: number;
}

/**
 * Starts a session for a user: a session row, a refresh token (stored hashed) and an access token,
 * in a transaction of its own.
 */
export async function createSession(ctx: CoreContext, userId: string, opts: SessionStart = {}): Promise<SessionTokens> {
  return issueSession(ctx, await ctx.store.writeTx((tx) => openSession(tx, ctx, userId, opts)));
}

/**
 * Writes a new session in the caller's transaction, so that what created the user can start their
 * first session in the same commit (a sign-up: one transaction, one durable sync). The caller
 * signs its access token with `issueSession` once the transaction has committed. `newUser`: the user
 * was created in this transaction, so it has no sessions to cap (the cap's statement is skipped).
 */
export async function openSession(tx: Kysely<DB>, ctx: CoreContext, userId: string, opts: SessionStart = {}, { newUser = false }: { newUser?: boolean } = {}): Promise<OpenedSession> {
  const now = ctx.clock.now();
  const handle = createId();
  const refreshToken = createSecretToken();
  const hash = hashToken(refreshToken);
  const expiresAt = slidingExpiry(ctx, now, now, opts.endsAt);
  const acted = opts.actor !== undefined;
  const subject = await repo.findEmailVerified(tx, userId);
  if (subject === undefined) throw unauthorised();
  const person = subject.personId;
  // A gate (a ban) refuses the person: no session, whichever method proved them (a new user has none to refuse).
  if (!newUser) await assertMayStartSession(tx, ctx, person);
  // A policy (SSO required for the address's domain) refuses this way of signing in: no session, and a sign-up in this transaction is undone.
  await assertSignInAllowed(tx, ctx, { userId, personId: person, newUser });
  // The cap on live sessions per user: room is made for the new one by revoking the oldest.
  const capped = newUser || acted ? 0 : await repo.revokeSessionsBeyond(tx, userId, ctx.config.sessionsPerUser - 1, now, "session_cap");
  if (capped > 0) await insertEvent(tx, { at: now, type: "sessions.revoked", userId: person, data: { count: capped, reason: "session_cap" } });
  await repo.insertSession(tx, { handle, user_id: userId, created_at: now, expires_at: expiresAt, last_refreshed_at: null, revoked_at: null, revoke_reason: null, client_ip: opts.client?.ip?.slice(0, 64) || null, user_agent: opts.client?.userAgent?.slice(0, 300) || null });
  if (acted) await repo.setSessionActor(tx, handle, JSON.stringify(opts.actor), opts.endsAt ?? null);
  await repo.insertRefreshToken(tx, { token_hash: hash, session_handle: handle, parent_hash: null, created_at: now, expires_at: expiresAt, rotated_at: null });
  await insertEvent(tx, { at: now, type: "session.created", userId: person, data: { sessionHandle: handle, ...(person !== userId ? { recipeUserId: userId } : {}), ...(acted ? { actor: opts.actor!.sub } : {}) } });
  if (!acted) for (const opened of ctx.sessionOpened) await opened(tx, ctx, { personId: person, userId, sessionHandle: handle, client: opts.client, newUser, now });
  const claims = await computeClaims(ctx.claims, tx, { userId, personId: person, sessionHandle: handle, firstFactor: opts.factor }, now);
  if (acted) claims[ACTOR_CLAIM] = opts.actor;
  return { userId, primaryUserId: person, handle, refreshToken, hash, expiresAt, verified: subject.verified, claims, endsAt: opts.endsAt };
}

/** Signs the access token of a session `openSession` wrote, after its transaction committed. */
export async function issueSession(ctx: CoreContext, s: OpenedSession): Promise<SessionTokens> {
  const at = await signAccessToken(ctx, { userId: s.userId, primaryUserId: s.primaryUserId, sessionHandle: s.handle, refreshTokenHash: s.hash, emailVerified: s.verified, claims: s.claims, exp: expFor(ctx, ctx.clock.now(), s.endsAt) });
  return { userId: s.userId, sessionHandle: s.handle, accessToken: at.token, accessTokenPayload: at.payload, accessTokenExpiresAt: at.expiresAt, refreshToken: s.refreshToken, refreshTokenExpiresAt: s.expiresAt };
}

type RefreshOutcome =
  | { kind: "ok"; userId: string; primaryUserId: string; handle: string; hash: string; expiresAt: number; verified: boolean; claims: Record<string, unknown>; endsAt: number | null }
  | { kind: "unauthorised" }
  | { kind: "theft"; userId: string; handle: string };

/**
 * Exchanges a refresh token for a new pair (rotation on every refresh, sliding expiry).
 * - live token: compare-and-swap it to rotated, displace any sibling minted in a grace window,
 *   issue a child;
 * - token rotated at most `refreshGraceWindowMs` ago (two tabs, a lost response): issue another
 *   child without revoking anything, so both callers keep a working session;
 * - token rotated longer ago: theft. The whole session is revoked (the newest token dies too) and
 *   the revocation is committed before TOKEN_THEFT_DETECTED is thrown;
 * - unknown, expired, or its session revoked/expired: UNAUTHORISED;
 * - the session is older than config.sessionMaxLifetimeMs (the absolute cap beside the sliding
 *   expiry): the session is ended (revoked, reason "max_lifetime") and the answer is UNAUTHORISED.
 */
export async function refreshSession(ctx: CoreContext, refreshToken: string): Promise<SessionTokens> {
  if (!REFRESH_TOKEN.test(refreshToken) && !MOVED_REFRESH_TOKEN.test(refreshToken)) throw unauthorised();
  const oldHash = hashToken(refreshToken);
  const child = createSecretToken();
  const childHash = hashToken(child);
  const now = ctx.clock.now();
  const outcome = await ctx.store.writeTx(async (tx): Promise<RefreshOutcome> => {
    let row = await repo.findRefreshToken(tx, oldHash);
    // A session moved in from another server: its token becomes ours here (core/moved-sessions.ts).
    // Read again either way: a concurrent refresh (two tabs) may have adopted it and committed
    // between our first read and the moved row's lookup, which then finds nothing.
    if (!row) {
      await adoptMovedRefreshToken(ctx, tx, refreshToken, oldHash, now);
      row = await repo.findRefreshToken(tx, oldHash);
    }
    if (row && row.revoked_at === null && now >= row.session_created_at + ctx.config.sessionMaxLifetimeMs) {
      await repo.revokeSession(tx, row.session_handle, now, "max_lifetime");
      await insertEvent(tx, { at: now, type: "session.revoked", userId: row.user_id, data: { sessionHandle: row.session_handle, reason: "max_lifetime" } });
      return { kind: "unauthorised" };
    }
    if (!row || row.revoked_at !== null || row.session_expires_at <= now || row.expires_at <= now) return { kind: "unauthorised" };
    let rotatedAt = row.rotated_at;
    if (rotatedAt === null) {
      if (await repo.markRefreshTokenRotated(tx, oldHash, now)) await repo.displaceLiveRefreshTokens(tx, row.session_handle, now);
      else rotatedAt = (await repo.findRefreshToken(tx, oldHash))?.rotated_at ?? now; // lost the race: a concurrent refresh
    }
    if (rotatedAt !== null && now - rotatedAt > ctx.config.refreshGraceWindowMs) {
      await repo.revokeSession(tx, row.session_handle, now, "token_theft");
      await insertEvent(tx, { at: now, type: "session.token_theft_detected", userId: row.user_id, data: { sessionHandle: row.session_handle } });
      return { kind: "theft", userId: row.user_id, handle: row.session_handle };
    }
    const endsAt = row.ends_at === null ? null : Number(row.ends_at);
    const expiresAt = slidingExpiry(ctx, now, row.session_created_at, endsAt);
    if (!(await repo.extendSession(tx, row.session_handle, expiresAt, now))) return { kind: "unauthorised" };
    await repo.insertRefreshToken(tx, { token_hash: childHash, session_handle: row.session_handle, parent_hash: oldHash, created_at: now, expires_at: expiresAt, rotated_at: null });
    // The verified state came with the token row (same transaction; nothing here changes it).
    const personId = row.primary_user_id ?? row.user_id;
    const claims = await computeClaims(ctx.claims, tx, { userId: row.user_id, personId, sessionHandle: row.session_handle }, now);
    const actor = actorOf(row.actor);
    if (actor) claims[ACTOR_CLAIM] = actor;
    return { kind: "ok", userId: row.user_id, primaryUserId: personId, handle: row.session_handle, hash: childHash, expiresAt, verified: row.verified_at !== null, claims, endsAt };
  });
  if (outcome.kind === "theft") {
    ctx.logger.warn("refresh token reuse: session revoked", { userId: outcome.userId, sessionHandle: outcome.handle });
    throw new AuthError("TOKEN_THEFT_DETECTED", "token theft detected", { clearTokens: true });
  }
  if (outcome.kind === "unauthorised") throw unauthorised();
  const at = await signAccessToken(ctx, { userId: outcome.userId, primaryUserId: outcome.primaryUserId, sessionHandle: outcome.handle, refreshTokenHash: outcome.hash, emailVerified: outcome.verified, claims: outcome.claims, exp: expFor(ctx, now, outcome.endsAt) });
  return {
    userId: outcome.userId, sessionHandle: outcome.handle, accessToken: at.token, accessTokenPayload: at.payload,
    accessTokenExpiresAt: at.expiresAt, refreshToken: child, refreshTokenExpiresAt: outcome.expiresAt,
  };
}

/**
 * When a session (and the refresh token issued now) expires: the sliding lifetime from now, but
 * never past the absolute cap from the sign-in, so cookies and clients see the real end.
 */
function slidingExpiry(ctx: CoreContext, now: number, createdAt: number, endsAt?: number | null): number {
  return Math.min(now + ctx.config.refreshTokenLifetimeMs, createdAt + ctx.config.sessionMaxLifetimeMs, endsAt ?? Infinity);
}

/**
 * New tokens for a live session whose opener could not hand them over itself (a support session,
 * opened from the dashboard, reaches the admin's browser through a one-time link): every earlier
 * refresh token of the session stops working, a new one and an access token are issued, in the
 * caller's transaction (sign with `issueSession` after the commit). Undefined when the session has
 * ended (revoked, expired) or a gate (a ban) refuses the person.
 */
export async function reopenSession(tx: Kysely<DB>, ctx: CoreContext, handle: string): Promise<OpenedSession | undefined> {
  const now = ctx.clock.now();
  const row = await repo.findLiveSession(tx, handle, now);
  if (!row) return undefined;
  const subject = await repo.findEmailVerified(tx, row.user_id);
  if (subject === undefined) return undefined;
  try {
    await assertMayStartSession(tx, ctx, subject.personId);
  } catch (err) {
    if (err instanceof AuthError && err.code === "SIGN_IN_REFUSED") return undefined;
    throw err;
  }
  const refreshToken = createSecretToken();
  const hash = hashToken(refreshToken);
  await repo.displaceLiveRefreshTokens(tx, handle, now);
  const expiresAt = Number(row.expires_at);
  await repo.insertRefreshToken(tx, { token_hash: hash, session_handle: handle, parent_hash: null, created_at: now, expires_at: expiresAt, rotated_at: null });
  const claims = await computeClaims(ctx.claims, tx, { userId: row.user_id, personId: subject.personId, sessionHandle: handle }, now);
  const actor = actorOf(row.actor);
  if (actor) claims[ACTOR_CLAIM] = actor;
  const endsAt = row.ends_at === null ? undefined : Number(row.ends_at);
  return { userId: row.user_id, primaryUserId: subject.personId, handle, refreshToken, hash, expiresAt, verified: subject.verified, claims, endsAt };
}

/** Revokes one session (sign-out; an operator names themselves in `source`). False when it was already revoked. */
export async function revokeSession(ctx: CoreContext, sessionHandle: string, userId: string, reason = "signout", source?: string): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const done = await repo.revokeSession(tx, sessionHandle, now, reason);
    if (done) await insertEvent(tx, { at: now, type: "session.revoked", userId, data: { sessionHandle, reason, ...(source ? { source } : {}) } });
    return done;
  });
}

/**
 * The server-side state of a session, in one query: whether it is still active and whether its
 * user's email is verified now. Used by endpoints that must not trust a token alone.
 */
export async function getSessionState(ctx: CoreContext, sessionHandle: string): Promise<{ active: boolean; userId?: string; emailVerified: boolean }> {
  const r = await repo.findSessionState(ctx.store.db, sessionHandle);
  if (!r || r.revoked_at !== null || r.expires_at <= ctx.clock.now()) return { active: false, emailVerified: false };
  return { active: true, userId: r.user_id, emailVerified: r.verified_at !== null };
}

/**
 * Re-signs an access token with a new `st-ev` value, same session, refresh hash and expiry (signed
 * with the cached key, see signAccessToken): a claim change must not extend the token's life.
 * `claims` replaces the rooms' claims; without it the token keeps the ones it carries.
 */
export async function reissueAccessToken(ctx: CoreContext, payload: AccessTokenPayload, emailVerified: boolean, claims?: Record<string, unknown>): Promise<SignedAccessToken> {
  return signAccessToken(ctx, { userId: payload.rsub, primaryUserId: payload.sub, sessionHandle: payload.sessionHandle, refreshTokenHash: payload.refreshTokenHash1, emailVerified, exp: payload.exp, claims: claims ?? claimsOf(payload) });
}
