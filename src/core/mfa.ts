import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import { addRequiredFactor, addRequiredFactorOfEach, findRequiredFactors, findSessionFactors, removeRequiredFactor, upsertSessionFactor } from "../store/mfa.js";
import { findUserById } from "../store/users.js";
import type { ClaimProvider, Factor, FactorId } from "./claims.js";
import type { CoreContext } from "./context.js";
import { AuthError } from "./errors.js";

/**
 * Multi-factor authentication's kernel (the SDKs' `multifactorauth` recipe): the `st-mfa` claim,
 * each person's requirements and each session's completed factors. Each room declares the factors
 * it provides (Room.factors); the kernel loops over them. Factor rooms (methods/<method>) set a
 * factor up with requireFactor/dropRequiredFactor and report a completed factor with
 * completeFactor, inside their own transaction.
 */
export const MFA_CLAIM = "st-mfa";

/** What MFA reads from the context: the configuration and the rooms' factors (CoreContext.factors). */
export type MfaContext = Pick<CoreContext, "config" | "factors">;

/** Checks the rooms' factors once, at start: each id declared by one room only. */
export function checkFactors(factors: readonly Factor[]): readonly Factor[] {
  const seen = new Set<string>();
  for (const f of factors) {
    if (seen.has(f.id)) throw new Error(`factor "${f.id}" is declared twice`);
    seen.add(f.id);
  }
  return factors;
}

/** The second factors the rooms offer. */
const secondaryFactors = (ctx: MfaContext): FactorId[] => ctx.factors.filter((f) => f.secondary).map((f) => f.id);

/** The claim's value (N `multiFactorAuthClaim.ts`): completed factors (epoch seconds) and whether the requirements are met. */
export interface MfaClaimValue { c: Record<string, number>; v: boolean }

/** The SDK's 403 bodies (`claimValidationErrors`). */
const notSatisfied = "MFA requirement for auth is not satisfied";
const setupRefused = "Completed factors in the session does not satisfy the MFA requirements for auth";
const invalidClaim = (message: string) => new AuthError("INVALID_CLAIM", "invalid claim", { claimValidationErrors: [{ id: MFA_CLAIM, reason: { message } }] });

/** What a session knows about its person's MFA: the claim and the group of factors still to complete. */
export interface MfaState {
  claim: MfaClaimValue;
  /** Factors the person requires (one of them completes the requirement); empty: none. */
  required: FactorId[];
  /** The person's set-up secondary factors. */
  setUp: FactorId[];
}

/** The claim and requirements of a session, read inside `tx`. */
export async function readMfaState(tx: Kysely<DB>, ctx: MfaContext, personId: string, sessionHandle: string, known?: Array<{ factor_id: string; completed_at: number }>): Promise<MfaState> {
  const done = known ?? await findSessionFactors(tx, sessionHandle);
  const setUp: FactorId[] = await findRequiredFactors(tx, personId);
  const required = [...new Set<FactorId>([...setUp, ...(ctx.config.mfa === "required" ? secondaryFactors(ctx) : [])])];
  const c: Record<string, number> = {};
  for (const f of done) c[f.factor_id] = Math.floor(f.completed_at / 1000);
  const v = required.length === 0 || required.some((f) => f in c);
  return { claim: { c, v }, required, setUp };
}

/**
 * The `st-mfa` claim provider: when a session starts, its first factor is recorded as completed;
 * at every refresh the value is recomputed from the stored factors and the current requirements,
 * so a requirement added meanwhile (or `--mfa required`) takes effect at the next refresh.
 */
export function createMfaClaim(ctx: MfaContext): ClaimProvider {
  return {
    keys: [MFA_CLAIM],
    async onSessionStart(tx, subject, now) {
      await upsertSessionFactor(tx, subject.sessionHandle, subject.firstFactor, now);
    },
    async compute(tx, subject, now) {
      // A session that starts now has one completed factor, the one onSessionStart just recorded
      // in this transaction (its handle is new): no need to read it back.
      const known = !subject.firstFactor ? undefined : [{ factor_id: subject.firstFactor, completed_at: now }];
      return { [MFA_CLAIM]: (await readMfaState(tx, ctx, subject.personId, subject.sessionHandle, known)).claim };
    },
  };
}

/**
 * Records that the session completed `factor` (in the caller's transaction) and returns the new
 * claim, which the caller puts in a re-issued access token.
 */
export async function completeFactor(tx: Kysely<DB>, ctx: CoreContext, s: { personId: string; sessionHandle: string }, factor: FactorId): Promise<MfaClaimValue> {
  await upsertSessionFactor(tx, s.sessionHandle, factor, ctx.clock.now());
  return (await readMfaState(tx, ctx, s.personId, s.sessionHandle)).claim;
}

/** Marks a factor as set up for a person: from now on every sign-in needs it (or another required one). */
export async function requireFactor(tx: Kysely<DB>, personId: string, factor: FactorId, now: number): Promise<void> {
  await addRequiredFactor(tx, personId, factor, now);
}

/**
 * Marks a factor as set up for each of these people at once, as requireFactor does for one: a
 * second factor moved in from another system (users import) is asked for at their next sign-in,
 * exactly as one set up here would be.
 */
export async function requireFactorOfEach(tx: Kysely<DB>, personIds: readonly string[], factor: FactorId, now: number): Promise<void> {
  if (personIds.length > 0) await addRequiredFactorOfEach(tx, personIds, factor, now);
}

/** The person no longer has `factor` set up (last device removed, operator reset). */
export async function dropRequiredFactor(tx: Kysely<DB>, personId: string, factor: FactorId): Promise<boolean> {
  return removeRequiredFactor(tx, personId, factor);
}

/**
 * The factor set-up guard (N `assertAllowedToSetupFactorElseThrowInvalidClaimError`): allowed when
 * the requirements are met, or when none of the unmet group is set up yet and `factor` belongs to
 * it (first set-up right after sign-in). Otherwise 403 invalid claim: a password alone must not
 * be enough to add a second factor to an account that has one.
 */
export function assertAllowedToSetUp(state: MfaState, factor: FactorId): void {
  if (state.claim.v) return;
  if (state.required.includes(factor) && !state.required.some((f) => state.setUp.includes(f))) return;
  throw invalidClaim(setupRefused);
}

/**
 * The authentication methods of a session for an ID token's `amr` (RFC 8176): each completed
 * factor as its room names it, and "mfa" when two different kinds of factor were completed.
 */
export function authenticationMethods(factors: readonly Factor[], completed: readonly string[]): string[] {
  const amr = [...new Set(completed.flatMap((id) => factors.find((f) => f.id === id)?.amr ?? []))];
  return completed.length > 1 ? [...amr, "mfa"] : amr;
}

/** 403 invalid claim unless the state's requirements are met (e.g. removing a verified device). */
export function assertMfaComplete(state: MfaState): void {
  if (!state.claim.v) throw invalidClaim(setupRefused);
}

/**
 * The global claim check of the SDKs (`hasCompletedMFARequirementsForAuth`) on an access-token
 * payload: 403 with the SDK's body while `st-mfa.v` is false. A token without the claim passes.
 */
export function assertMfaClaimSatisfied(payload: Readonly<Record<string, unknown>>): void {
  const claim = payload[MFA_CLAIM] as Partial<MfaClaimValue> | undefined;
  if (claim && claim.v === false) throw invalidClaim(notSatisfied);
}

/** `PUT /mfa/info`'s answer (N `multifactorauth/api/resyncSessionAndFetchMFAInfo.ts`). */
export interface MfaInfo {
  claim: MfaClaimValue;
  factors: { next: FactorId[]; alreadySetup: FactorId[]; allowedToSetup: FactorId[] };
  emails: Record<string, string[]>;
  phoneNumbers: Record<string, string[]>;
}

/** The session's MFA picture: what is set up, what may be set up, what comes next. */
export async function getMfaInfo(ctx: CoreContext, s: { userId: string; personId: string; sessionHandle: string }): Promise<MfaInfo> {
  const tx = ctx.store.db;
  const state = await readMfaState(tx, ctx, s.personId, s.sessionHandle);
  const user = await findUserById(tx, s.userId);
  const secondary = secondaryFactors(ctx);
  const firstFactors = Object.keys(state.claim.c).filter((f) => !secondary.includes(f));
  const alreadySetup = [...new Set<FactorId>([...firstFactors, ...state.setUp])];
  const allowedToSetup = secondary.filter((f) => !alreadySetup.includes(f) && isAllowed(state, f));
  let next: FactorId[] = [];
  if (!state.claim.v) {
    const setUpInGroup = state.required.filter((f) => alreadySetup.includes(f));
    next = setUpInGroup.length > 0 ? setUpInGroup : state.required.filter((f) => allowedToSetup.includes(f));
  }
  const emails = user ? [user.email] : [];
  // Under each factor that proves an address, the person's addresses of that kind (no phone numbers are kept).
  const byFactor = (kind: Factor["proves"], addresses: string[]) => Object.fromEntries(ctx.factors.filter((f) => f.proves === kind).map((f) => [f.id, addresses]));
  return {
    claim: state.claim,
    factors: { next, alreadySetup, allowedToSetup },
    emails: byFactor("email", emails),
    phoneNumbers: byFactor("phone", []),
  };
}

function isAllowed(state: MfaState, factor: FactorId): boolean {
  try { assertAllowedToSetUp(state, factor); return true; } catch { return false; }
}
