import { verify } from "node:crypto";
import type { Config } from "../config/types.js";
import { signRs256 } from "../util/signing-thread.js";
import type { CoreContext } from "./context.js";
import { AuthError } from "./errors.js";

/** The access-token payload of PROTOCOL.md §5 (SuperTokens v5 layout). */
export interface AccessTokenPayload {
  sub: string;
  iss: string;
  iat: number;
  exp: number;
  sessionHandle: string;
  tId: "public";
  rsub: string;
  refreshTokenHash1: string;
  parentRefreshTokenHash1: null;
  antiCsrfToken: null;
  "st-ev": { v: boolean; t: number };
  /** Claims the rooms add (core/claims.ts), e.g. `st-mfa`, `st-role`. */
  [claim: string]: unknown;
}

export interface SignedAccessToken { token: string; payload: AccessTokenPayload; expiresAt: number }

/** Leeway for iat/nbf only (clock skew between instances); exp gets none, see verifyAccessToken. */
const LEEWAY_S = 60;
const MAX_TOKEN_LENGTH = 8192;
const SEGMENT = /^[A-Za-z0-9_-]+$/;
/** kids we mint look like d-1700000000000; anything far from that is never looked up. */
const KID = /^[A-Za-z0-9_-]{1,64}$/;

/** `iss` of our tokens: the public URL plus the API base path. */
export function issuerOf(config: Readonly<Config>): string {
  return config.publicUrl + config.apiBasePath;
}

const tryRefresh = () => new AuthError("TRY_REFRESH_TOKEN", "try refresh token");
const b64json = (v: unknown) => Buffer.from(JSON.stringify(v), "utf8").toString("base64url");

/**
 * Signs an access token with the KeyRing's cached current key (no database access unless the cache
 * is due for its once-a-minute reload). `exp` may be given to re-issue a token with changed claims
 * without extending its life.
 */
export async function signAccessToken(ctx: CoreContext, input: {
  /** The login method's user (`rsub`); `primaryUserId` is the person (`sub`), the same when unlinked. */
  userId: string; primaryUserId?: string; sessionHandle: string; refreshTokenHash: string; emailVerified: boolean; exp?: number;
  /** The rooms' claims (core/claims.ts); the protocol's own keys always win over them. */
  claims?: Record<string, unknown>;
}): Promise<SignedAccessToken> {
  const { kid, key } = await ctx.keys.signingKey();
  const now = ctx.clock.now();
  const iat = Math.floor(now / 1000);
  const payload: AccessTokenPayload = {
    ...input.claims,
    sub: input.primaryUserId ?? input.userId,
    iss: issuerOf(ctx.config),
    iat,
    exp: input.exp ?? Math.floor((now + ctx.config.accessTokenLifetimeMs) / 1000),
    sessionHandle: input.sessionHandle,
    tId: "public",
    rsub: input.userId,
    refreshTokenHash1: input.refreshTokenHash,
    parentRefreshTokenHash1: null,
    antiCsrfToken: null,
    "st-ev": { v: input.emailVerified, t: now },
  };
  const data = `${b64json({ alg: "RS256", typ: "JWT", kid, version: "5" })}.${b64json(payload)}`;
  // Off the event loop (util/signing-thread.ts): the one expensive step of every token issued.
  const signature = await signRs256(data, key, kid);
  return { token: `${data}.${signature}`, payload, expiresAt: payload.exp * 1000 };
}

/**
 * Structural check only (no key, no signature): three base64url segments and a header that is a
 * JSON object with alg RS256 and a sane string kid. Used to tell our JWTs from foreign Bearer tokens.
 */
export function parseAccessTokenHeader(token: string): { kid: string } | undefined {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  const parts = token.split(".");
  if (parts.length !== 3 || !parts.every((p) => SEGMENT.test(p)) || parts[0].length > 1024) return undefined;
  const header = parseJson(parts[0]);
  if (!header || header.alg !== "RS256" || typeof header.kid !== "string" || !KID.test(header.kid)) return undefined;
  if (header.typ !== undefined && header.typ !== "JWT") return undefined;
  // Unknown critical extensions must be refused (RFC 7515 §4.1.11); jku/jwk/x5u/x5c are simply ignored.
  if (header.crit !== undefined) return undefined;
  return { kid: header.kid };
}

/**
 * Verifies an access token strictly: RS256 only (none/HS256/anything else is refused before any key
 * is touched), a known kid from the cache, the signature, issuer, time claims, and every claim with
 * its type. Any failure is TRY_REFRESH_TOKEN. `exp` is checked against our own clock with NO leeway:
 * we issued the token, so there is no foreign clock to forgive, and the SDKs only refresh on our
 * 401, so a leeway would simply make every access token live a minute longer than configured.
 */
export async function verifyAccessToken(ctx: CoreContext, token: string, parsedHeader?: { kid: string }): Promise<AccessTokenPayload> {
  // A caller that already ran parseAccessTokenHeader on this token passes its result.
  const header = parsedHeader ?? parseAccessTokenHeader(token);
  if (!header) throw tryRefresh();
  const key = await ctx.keys.verificationKey(header.kid);
  if (!key) throw tryRefresh();
  const dot = token.lastIndexOf(".");
  const sigText = token.slice(dot + 1);
  const signature = Buffer.from(sigText, "base64url");
  // Non-canonical base64url (stray trailing bits) would let many strings share one signature.
  if (signature.toString("base64url") !== sigText) throw tryRefresh();
  let ok = false;
  try { ok = verify("RSA-SHA256", Buffer.from(token.slice(0, dot)), key, signature); } catch { ok = false; }
  if (!ok) throw tryRefresh();
  const p = parseJson(token.slice(token.indexOf(".") + 1, dot));
  // A SuperTokens core's token, signed by its key moved in (`users import --from supertokens`):
  // the core writes no `iss`, and `st-ev` only when the app's email verification adds it. Absent,
  // `st-ev` reads "not verified, checked long ago" (the SDKs check again at once); every other
  // claim is held to our rules. Our own tokens must carry both.
  if (p && ctx.keys.isMovedKey(header.kid)) {
    if (p.iss === undefined) p.iss = issuerOf(ctx.config);
    if (p["st-ev"] === undefined) p["st-ev"] = { v: false, t: 0 };
  }
  if (!p || !hasPayloadShape(p)) throw tryRefresh();
  const nowS = ctx.clock.now() / 1000;
  const exp = p.exp as number, iat = p.iat as number;
  if (exp <= nowS || iat - LEEWAY_S > nowS || iat > exp) throw tryRefresh();
  if (p.nbf !== undefined && (typeof p.nbf !== "number" || p.nbf - LEEWAY_S > nowS)) throw tryRefresh();
  if (p.iss !== issuerOf(ctx.config)) throw tryRefresh();
  return p as unknown as AccessTokenPayload;
}

function hasPayloadShape(p: Record<string, unknown>): boolean {
  const ev = p["st-ev"] as Record<string, unknown> | undefined;
  return typeof p.sub === "string" && p.sub.length > 0 && p.sub.length <= 128
    && typeof p.rsub === "string" && typeof p.sessionHandle === "string" && p.sessionHandle.length <= 128
    && typeof p.refreshTokenHash1 === "string" && p.tId === "public"
    && Number.isSafeInteger(p.exp) && (p.exp as number) > 0 && Number.isSafeInteger(p.iat) && (p.iat as number) > 0
    && !!ev && typeof ev === "object" && typeof ev.v === "boolean" && typeof ev.t === "number";
}

function parseJson(segment: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
    return v && typeof v === "object" && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
