import type { H3Event } from "h3";
import { badInput } from "../../../core/errors.js";
import { MFA_CLAIM, type MfaClaimValue } from "../../../core/mfa.js";
import type { HttpDeps } from "../../../http/deps.js";
import { sessionOf } from "../../../http/guard.js";
import { updateSessionClaims, type SessionInfo } from "../../../http/session-guard.js";
import type { MfaSession } from "../devices.js";

/**
 * The session of a TOTP call: its routes check it against the database (a revoked session sets
 * nothing up) and serve it while the second factor is missing, as the SDKs call these to complete it.
 */
export async function requireMfaSession(event: H3Event, deps: HttpDeps): Promise<{ session: SessionInfo; s: MfaSession }> {
  const session = sessionOf(event);
  return { session, s: { userId: session.userId, personId: session.primaryUserId, sessionHandle: session.sessionHandle } };
}

/** Re-issues the access token when the `st-mfa` claim changed; the body fields to merge. */
export function sendMfaClaim(event: H3Event, deps: HttpDeps, session: SessionInfo, claim: MfaClaimValue): Promise<Record<string, unknown>> {
  return updateSessionClaims(event, deps, session, { [MFA_CLAIM]: claim });
}

/** A required string field of at most `max` characters (400 with the SDK's wording otherwise). */
export function requireString(body: Record<string, unknown>, key: string, max = 256): string {
  const v = body[key];
  if (typeof v !== "string") throw badInput(`${key} is required and must be a string`);
  if (v.length > max) throw badInput(`${key} must be at most ${max} characters`);
  return v;
}
