import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";

/**
 * One of the SDKs' factor ids (N `multifactorauth/types.ts`): how a session's sign-in was proven.
 * A wire string, declared by the room that provides the factor (Room.factors, core/mfa.ts).
 */
export type FactorId = string;

/** A factor a room provides (Room.factors), under its SDK factor id; core/mfa.ts loops over them. */
export interface Factor {
  id: FactorId;
  /** A second factor: one a person sets up, and `--mfa required` makes every person complete one of them. Else a first factor (a sign-in). */
  secondary?: boolean;
  /** The kind of address its sign-in proves: PUT /mfa/info lists the person's addresses of that kind under its id (`emails`, `phoneNumbers`). */
  proves?: "email" | "phone";
  /** How an ID token names it in `amr` (RFC 8176: "pwd", "otp", "hwk", "sms"…; "fed" for a federated sign-in). */
  amr: string;
  /**
   * A first factor's generic refusal, as the SDKs know it for this method (`SIGN_IN_NOT_ALLOWED`
   * with its reason): what a sign-in with it answers when a person gate refuses the person
   * (core/person-gates.ts, e.g. a ban), whatever the gate's cause.
   */
  refusal?: { status: string; reason: string };
}

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
  /** The keys it sets in the access-token payload. Never one of PROTOCOL.md §5's own keys. */
  readonly keys: readonly string[];
  /**
   * Work of its own when a session starts (recording the first factor), run before any claim is
   * computed so every provider reads the same state; compute itself only reads.
   */
  onSessionStart?(tx: Kysely<DB>, subject: ClaimSubject & { firstFactor: FactorId }, now: number): Promise<void>;
  /**
   * The values now, by key (claims that share a read compute together); a key left out, or
   * undefined, leaves that claim out of this token.
   */
  compute(tx: Kysely<DB>, subject: ClaimSubject, now: number): Promise<Readonly<Record<string, unknown>>>;
}

/** The payload keys of PROTOCOL.md §5, which no provider may set. */
export const PROTOCOL_KEYS: ReadonlySet<string> = new Set([
  "sub", "iss", "iat", "exp", "nbf", "aud", "jti", "sessionHandle", "tId", "rsub",
  "refreshTokenHash1", "parentRefreshTokenHash1", "antiCsrfToken", "st-ev",
]);

/** Checks a list of providers once, at start: unique keys, none of the protocol's own. */
export function checkClaimProviders(providers: readonly ClaimProvider[]): readonly ClaimProvider[] {
  const seen = new Set<string>();
  for (const key of providers.flatMap((p) => p.keys)) {
    if (PROTOCOL_KEYS.has(key)) throw new Error(`claim "${key}" is one of the access token's own keys`);
    // The kernel's own: who acts in a session someone else opened (core/sessions.ts ACTOR_CLAIM).
    if (key === "act") throw new Error('claim "act" is the kernel\'s (a session someone else acts in)');
    if (seen.has(key)) throw new Error(`claim "${key}" is declared twice`);
    seen.add(key);
  }
  return providers;
}

/**
 * Every provider's values for this subject, in one object (absent values left out). When the
 * session starts, every provider's onSessionStart runs first. A provider only sets its own keys.
 */
export async function computeClaims(providers: readonly ClaimProvider[], tx: Kysely<DB>, subject: ClaimSubject, now: number): Promise<Record<string, unknown>> {
  const firstFactor = subject.firstFactor;
  if (firstFactor) for (const p of providers) await p.onSessionStart?.(tx, { ...subject, firstFactor }, now);
  const out: Record<string, unknown> = {};
  for (const p of providers) {
    const values = await p.compute(tx, subject, now);
    for (const key of p.keys) if (values[key] !== undefined) out[key] = values[key];
  }
  return out;
}

/** The provider claims an existing payload carries (to re-sign a token without recomputing them). */
export function claimsOf(payload: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(payload)) if (!PROTOCOL_KEYS.has(k)) out[k] = v;
  return out;
}
