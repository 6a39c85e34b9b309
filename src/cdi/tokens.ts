import { verify } from "node:crypto";
import { parseAccessTokenHeader } from "../core/access-tokens.js";
import type { CoreContext } from "../core/context.js";
import { signRs256 } from "../util/signing-thread.js";
import { CdiError } from "./http.js";

/** The keys of a CDI access token the core sets itself; the app's payload (`userDataInJWT`) is the rest. */
export const PROTECTED_KEYS = new Set(["sub", "iat", "exp", "sessionHandle", "parentRefreshTokenHash1", "refreshTokenHash1", "antiCsrfToken", "rsub", "tId"]);

/** What a CDI access token says (SuperTokens' v5 layout) beside the app's own claims. */
export interface CdiTokenClaims {
  sub: string; rsub: string; sessionHandle: string; refreshTokenHash1: string; parentRefreshTokenHash1?: string;
  antiCsrfToken?: string; tId: string; iat: number; exp: number;
}
export type CdiTokenPayload = CdiTokenClaims & Record<string, unknown>;

export interface SignedCdiToken { token: string; expiry: number; createdTime: number; payload: CdiTokenPayload }

const b64json = (v: unknown) => Buffer.from(JSON.stringify(v), "utf8").toString("base64url");

/** The app's part of a payload: everything but the protected keys. */
export function appPayload(p: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(p).filter(([k]) => !PROTECTED_KEYS.has(k)));
}

/** A payload the app gave: a JSON object none of whose keys the core sets itself (the core refuses them too). */
export function checkAppPayload(p: Record<string, unknown>): Record<string, unknown> {
  const clash = Object.keys(p).find((k) => PROTECTED_KEYS.has(k));
  if (clash) throw new CdiError(400, `The user payload contains protected field: ${clash}`);
  return p;
}

/**
 * Signs a v5 access token with the key ring's current key (kid `d-…`, which the SDK's
 * useDynamicAccessTokenSigningKey expects) and no `iss`, as the core writes it. `exp` is kept when
 * given (a regenerated token does not live longer).
 */
export async function signCdiToken(ctx: CoreContext, c: Omit<CdiTokenClaims, "iat" | "exp"> & { exp?: number }, app: Record<string, unknown>): Promise<SignedCdiToken> {
  const { kid, key } = await ctx.keys.signingKey();
  const now = ctx.clock.now();
  const iat = Math.floor(now / 1000);
  const exp = c.exp ?? Math.floor((now + ctx.config.accessTokenLifetimeMs) / 1000);
  const payload: CdiTokenPayload = {
    ...app, sub: c.sub, exp, iat, sessionHandle: c.sessionHandle, refreshTokenHash1: c.refreshTokenHash1,
    ...(c.parentRefreshTokenHash1 ? { parentRefreshTokenHash1: c.parentRefreshTokenHash1 } : {}),
    ...(c.antiCsrfToken ? { antiCsrfToken: c.antiCsrfToken } : {}), tId: c.tId, rsub: c.rsub,
  };
  const data = `${b64json({ alg: "RS256", typ: "JWT", kid, version: "5" })}.${b64json(payload)}`;
  const signature = await signRs256(data, key, kid);
  return { token: `${data}.${signature}`, expiry: exp * 1000, createdTime: iat * 1000, payload };
}

export class TokenRefused extends Error {
  constructor(readonly status: "TRY_REFRESH_TOKEN" | "UNAUTHORISED", message: string) {
    super(message);
  }
}

/**
 * Checks a CDI access token: RS256 with a key of the ring (authsvc's, or a SuperTokens core's
 * moved in), the v5 claims with their types, and unless `allowExpired` its expiry. Failing any is
 * TRY_REFRESH_TOKEN, the core's answer to a token it cannot use.
 */
export async function verifyCdiToken(ctx: CoreContext, token: string, { allowExpired = false } = {}): Promise<CdiTokenPayload> {
  const header = parseAccessTokenHeader(token);
  const refuse = (why: string) => new TokenRefused("TRY_REFRESH_TOKEN", why);
  if (!header) throw refuse("invalid access token");
  const key = await ctx.keys.verificationKey(header.kid);
  if (!key) throw refuse("access token signed with an unknown key");
  const dot = token.lastIndexOf(".");
  const sigText = token.slice(dot + 1);
  const signature = Buffer.from(sigText, "base64url");
  let ok = signature.toString("base64url") === sigText;
  if (ok) {
    try { ok = verify("RSA-SHA256", Buffer.from(token.slice(0, dot)), key, signature); } catch { ok = false; }
  }
  if (!ok) throw refuse("invalid access token signature");
  let p: Record<string, unknown> | undefined;
  try { p = JSON.parse(Buffer.from(token.slice(token.indexOf(".") + 1, dot), "base64url").toString("utf8")); } catch { p = undefined; }
  if (!p || typeof p !== "object" || Array.isArray(p)) throw refuse("invalid access token payload");
  const strs = ["sub", "sessionHandle", "refreshTokenHash1"].every((k) => typeof p![k] === "string");
  if (!strs || !Number.isSafeInteger(p.exp) || !Number.isSafeInteger(p.iat)) throw refuse("invalid access token payload");
  // The core writes absent optional claims as null (a token moved in from it).
  for (const k of ["parentRefreshTokenHash1", "antiCsrfToken"]) if (p[k] === null) delete p[k];
  if (p.parentRefreshTokenHash1 !== undefined && typeof p.parentRefreshTokenHash1 !== "string") throw refuse("invalid access token payload");
  if (p.rsub === undefined) p.rsub = p.sub;
  if (p.tId === undefined) p.tId = "public";
  if (typeof p.rsub !== "string" || typeof p.tId !== "string") throw refuse("invalid access token payload");
  if (!allowExpired && (p.exp as number) * 1000 <= ctx.clock.now()) throw refuse("access token expired");
  return p as CdiTokenPayload;
}
