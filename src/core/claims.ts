import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";

/** The SDKs' factor ids (N `multifactorauth/types.ts`): how a session's sign-in was proven. */
export type FactorId = "emailpassword" | "thirdparty" | "otp-email" | "otp-phone" | "link-email" | "link-phone" | "totp" | "webauthn";

/** Whose session a claim is computed for. */
export interface ClaimSubject {
  /** The login method's user (`rsub`). */
  userId: string;
  /** The person (`sub`): the primary user, the same as userId when unlinked. */
  personId: string;
  sessionHandle: string;
  /** Set only when the session starts: the factor the sign-in was made with. */
  firstFactor?: FactorId;
}

/**
 * A claim a room adds to every access token (the SDKs' claim shapes: `st-mfa`, `st-role`,
 * `st-perm`…). Rooms declare theirs and the composition root lists them in CoreContext.claims;
 * sessions.ts asks each one when a session starts and at every refresh, inside the transaction
 * that writes the session, so the value never lags a change committed before the refresh.
 */
export interface ClaimProvider {
  /** The key in the access-token payload. Never one of PROTOCOL.md §5's own keys. */
  readonly key: string;
  /** The value now; undefined leaves the claim out of this token. */
  compute(tx: Kysely<DB>, subject: ClaimSubject, now: number): Promise<unknown>;
}

/** The payload keys of PROTOCOL.md §5, which no provider may set. */
export const PROTOCOL_KEYS: ReadonlySet<string> = new Set([
  "sub", "iss", "iat", "exp", "nbf", "aud", "jti", "sessionHandle", "tId", "rsub",
  "refreshTokenHash1", "parentRefreshTokenHash1", "antiCsrfToken", "st-ev",
]);

/** Checks a list of providers once, at start: unique keys, none of the protocol's own. */
export function checkClaimProviders(providers: readonly ClaimProvider[]): readonly ClaimProvider[] {
  const seen = new Set<string>();
  for (const p of providers) {
    if (PROTOCOL_KEYS.has(p.key)) throw new Error(`claim "${p.key}" is one of the access token's own keys`);
    if (seen.has(p.key)) throw new Error(`claim "${p.key}" is declared twice`);
    seen.add(p.key);
  }
  return providers;
}

/** Every provider's value for this subject, in one object (absent values left out). */
export async function computeClaims(providers: readonly ClaimProvider[], tx: Kysely<DB>, subject: ClaimSubject, now: number): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const p of providers) {
    const v = await p.compute(tx, subject, now);
    if (v !== undefined) out[p.key] = v;
  }
  return out;
}

/** The provider claims an existing payload carries (to re-sign a token without recomputing them). */
export function claimsOf(payload: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(payload)) if (!PROTOCOL_KEYS.has(k)) out[k] = v;
  return out;
}
