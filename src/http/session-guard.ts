import type { H3Event } from "h3";
import { readHeader } from "./headers.js";
import { clientAddress } from "./limit-guard.js";
import { parseAccessTokenHeader, type AccessTokenPayload } from "../core/access-tokens.js";
import { cachedAccessToken, isCachedAccessToken, verifyAccessTokenCached } from "../core/verified-tokens.js";
import { AuthError } from "../core/errors.js";
import type { FactorId } from "../core/claims.js";
import { createSession, getSessionState, reissueAccessToken, type SessionStart, type SessionTokens } from "../core/sessions.js";
import { assertMfaClaimSatisfied } from "../core/mfa.js";
import { sessionRefused } from "../core/person-gates.js";
import { POLICY_REFUSAL } from "../core/login-policy.js";
import { claimsOf } from "../core/claims.js";
import type { HttpDeps } from "./deps.js";
import { ACCESS_COOKIE, attachTokens, clearTokens, cookiePolicy, readBearer, readCookieValues, selectCreationMode, wantsBodyMode, type AuthMode } from "./session-transport.js";

/** An authenticated request. */
export interface SessionInfo {
  /** The login method's user the session was started with (`rsub`): sessions and verification use it. */
  userId: string;
  /** The person (`sub`): the user id the app sees, equal to userId unless methods are linked. */
  primaryUserId: string;
  sessionHandle: string;
  payload: AccessTokenPayload;
  /** Where the access token came from; updated tokens go back the same way. */
  mode: AuthMode;
  /** Only with checkDatabase: whether the user's email is verified now (from the same query). */
  emailVerified?: boolean;
}

export interface SessionOptions {
  /** Also check the session row (revoked → 401 unauthorised + clearing). One query, no writes. */
  checkDatabase?: boolean;
  /**
   * Serve a session whose second factor is still missing (`st-mfa.v` false). Off by default: every
   * other route answers 403 invalid claim, as the SDKs' global validator does. On only for what the
   * SDKs call with an incomplete session: MFA and factor endpoints, sign-out, email verification.
   */
  allowIncompleteMfa?: boolean;
}

const tryRefresh = () => new AuthError("TRY_REFRESH_TOKEN", "try refresh token");

/**
 * Finds the access token: a Bearer JWT of ours wins; otherwise the sAccessToken cookie; a foreign
 * Bearer token is ignored when a cookie is present. Duplicate cookies are refused (which one would
 * a server pick?). Credentials are never read from the query string.
 */
function findAccessToken(event: H3Event, deps: HttpDeps): { token: string; mode: AuthMode; header?: { kid: string }; payload?: AccessTokenPayload } | undefined {
  const bearer = readBearer(event);
  const bearerMode: AuthMode = wantsBodyMode(event, deps.ctx.config) ? "body" : "header";
  // A token in the verified cache is ours without parsing, and usually verified already (payload);
  // otherwise its header is parsed once, here.
  if (bearer) {
    const payload = cachedAccessToken(deps.ctx, bearer);
    if (payload) return { token: bearer, mode: bearerMode, payload };
    if (isCachedAccessToken(deps.ctx, bearer)) return { token: bearer, mode: bearerMode };
  }
  const header = bearer ? parseAccessTokenHeader(bearer) : undefined;
  if (bearer && header) return { token: bearer, mode: bearerMode, header };
  const cookies = readCookieValues(event, ACCESS_COOKIE).filter((v) => v !== "");
  if (cookies.length > 1) throw tryRefresh();
  if (cookies.length === 1) return { token: cookies[0], mode: "cookie" };
  return bearer ? { token: bearer, mode: bearerMode } : undefined;
}

/** Anti-CSRF (§3): with SameSite=None a cookie-authenticated non-GET request must carry `rid`. */
export function needsCsrfHeader(event: H3Event, deps: HttpDeps, mode: AuthMode): boolean {
  return mode === "cookie" && cookiePolicy(deps.ctx.config).sameSite === "none"
    && isStateChange(event) && readHeader(event, "rid") === undefined;
}

const isStateChange = (event: H3Event) => event.method !== "GET" && event.method !== "HEAD" && event.method !== "OPTIONS";

/**
 * The CSRF rule for every cookie-authenticated state change, whatever SameSite says: the request
 * must carry what a page on another origin cannot send without a CORS preflight, the SDKs' `rid`
 * header or a JSON content type (an empty body too). SameSite=Lax lets a page on another origin of
 * the same site (a sibling subdomain) POST with the cookies, and an HTML form or a plain fetch can
 * send neither. Bearer tokens are never sent by a browser on its own, so header and body mode are
 * not checked. Refused with 403 before anything is read or changed.
 */
export function assertNotCrossOrigin(event: H3Event, mode: AuthMode | "all"): void {
  if (mode !== "cookie" || !isStateChange(event) || readHeader(event, "rid") !== undefined || hasJsonContentType(event)) return;
  throw new AuthError("FORBIDDEN", "A request authenticated by cookies must carry the rid header (the SuperTokens SDKs send it) or a JSON content type.");
}

function hasJsonContentType(event: H3Event): boolean {
  const type = (readHeader(event, "content-type") ?? "").split(";")[0].trim().toLowerCase();
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** Like requireSession, but a request with no credentials at all gets undefined instead of a 401. */
export async function optionalSession(event: H3Event, deps: HttpDeps, opts: SessionOptions = {}): Promise<SessionInfo | undefined> {
  const found = findAccessToken(event, deps);
  if (!found) return undefined;
  if (needsCsrfHeader(event, deps, found.mode)) throw tryRefresh();
  assertNotCrossOrigin(event, found.mode);
  const payload = found.payload ?? await verifyAccessTokenCached(deps.ctx, found.token, found.header);
  if (!opts.allowIncompleteMfa) assertMfaClaimSatisfied(payload);
  // A person a gate shuts out (a ban) is refused at once, though the token's signature still holds.
  const refused = sessionRefused(deps.ctx, payload.sub);
  if (refused === true || (refused !== false && await refused)) {
    clearTokens(event, deps.ctx.config, found.mode);
    throw new AuthError("UNAUTHORISED", "unauthorised", { clearTokens: true });
  }
  const session: SessionInfo = { userId: payload.rsub, primaryUserId: payload.sub, sessionHandle: payload.sessionHandle, payload, mode: found.mode };
  if (opts.checkDatabase) {
    const state = await getSessionState(deps.ctx, payload.sessionHandle);
    if (!state.active || state.userId !== payload.rsub) {
      clearTokens(event, deps.ctx.config, found.mode);
      throw new AuthError("UNAUTHORISED", "unauthorised", { clearTokens: true });
    }
    session.emailVerified = state.emailVerified;
  }
  return session;
}

/**
 * The guard for endpoints that need a session. No credentials → 401 unauthorised (nothing
 * cleared); bad/expired token → 401 try refresh token; with checkDatabase, a revoked or expired
 * session → 401 unauthorised with the tokens cleared in the mode they came in.
 */
export async function requireSession(event: H3Event, deps: HttpDeps, opts: SessionOptions = {}): Promise<SessionInfo> {
  const s = await optionalSession(event, deps, opts);
  if (!s) throw new AuthError("UNAUTHORISED", "unauthorised", { clearTokens: false });
  return s;
}

/** Where a sign-in that proved `factor` comes from: what a new session records (core/sessions.ts). */
export function sessionStartOf(event: H3Event, deps: HttpDeps, factor: FactorId): SessionStart {
  return { factor, client: { ip: clientAddress(event, deps.ctx.config), userAgent: readHeader(event, "user-agent") } };
}

/**
 * Creates a session for a user who just signed up or in with `factor`, in the
 * mode the request selected, and puts the tokens on the response. Returns the fields to merge into
 * the JSON body ({} unless body mode). Tokens the client sent are ignored (no fixation).
 */
export async function createSessionResponse(event: H3Event, deps: HttpDeps, userId: string, factor: FactorId): Promise<Record<string, unknown>> {
  const mode = selectCreationMode(event, deps.ctx.config);
  const tokens = await createSession(deps.ctx, userId, sessionStartOf(event, deps, factor)).catch((err: unknown) => {
    // A gate refused the person: the method's generic refusal (its status and reason), never why.
    if (!(err instanceof AuthError) || err.code !== "SIGN_IN_REFUSED") throw err;
    const refusal = deps.ctx.factors.find((f) => f.id === factor)?.refusal;
    // A sign-in policy's refusal (SSO required) keeps its words: they say what to use instead.
    if (err.details.reason === POLICY_REFUSAL) throw new AuthError("SIGN_IN_REFUSED", err.message, { status: refusal?.status, reason: POLICY_REFUSAL });
    throw new AuthError("SIGN_IN_REFUSED", refusal?.reason ?? err.message, { status: refusal?.status });
  });
  return attachNewSession(event, deps, mode, tokens);
}

/**
 * Puts a new session's tokens on the response in `mode` (selectCreationMode, read before the
 * session was written), like createSessionResponse, for a session its caller already opened.
 */
export function attachNewSession(event: H3Event, deps: HttpDeps, mode: AuthMode, tokens: SessionTokens): Record<string, unknown> {
  // Switching away from cookies: old session cookies would shadow the new tokens, so expire them.
  if (mode !== "cookie" && readCookieValues(event, ACCESS_COOKIE).length > 0) clearTokens(event, deps.ctx.config, "cookie");
  return attachTokens(event, deps.ctx.config, mode, tokens, deps.ctx.clock.now());
}

/**
 * Brings the token's `st-ev` claim up to date: when `isVerified` (or, if omitted, the stored state
 * read in one query) differs from the claim, re-issues the access token in the session's mode and
 * returns the body fields to merge; when they agree nothing is signed and {} comes back.
 */
export async function updateEmailVerificationClaim(event: H3Event, deps: HttpDeps, session: SessionInfo, isVerified?: boolean): Promise<Record<string, unknown>> {
  let verified = isVerified ?? session.emailVerified;
  if (verified === undefined) verified = (await getSessionState(deps.ctx, session.sessionHandle)).emailVerified;
  if (session.payload["st-ev"].v === verified) return {};
  const t = await reissueAccessToken(deps.ctx, session.payload, verified);
  session.payload = t.payload;
  session.emailVerified = verified;
  return attachTokens(event, deps.ctx.config, session.mode, { accessToken: t.token, accessTokenPayload: t.payload, accessTokenExpiresAt: t.expiresAt }, deps.ctx.clock.now());
}

/**
 * Brings rooms' claims in the session's token up to date (e.g. `st-mfa` after a factor completes):
 * re-issues the access token (+ front-token) in the session's mode when a value changed, and
 * returns the body fields to merge; {} when nothing changed.
 */
export async function updateSessionClaims(event: H3Event, deps: HttpDeps, session: SessionInfo, changed: Record<string, unknown>): Promise<Record<string, unknown>> {
  const current = claimsOf(session.payload);
  if (Object.entries(changed).every(([k, v]) => JSON.stringify(current[k]) === JSON.stringify(v))) return {};
  const t = await reissueAccessToken(deps.ctx, session.payload, session.payload["st-ev"].v, { ...current, ...changed });
  session.payload = t.payload;
  return attachTokens(event, deps.ctx.config, session.mode, { accessToken: t.token, accessTokenPayload: t.payload, accessTokenExpiresAt: t.expiresAt }, deps.ctx.clock.now());
}
