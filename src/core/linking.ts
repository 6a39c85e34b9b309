import type { Kysely } from "kysely";
import * as people from "../store/people.js";
import type { DB } from "../store/schema.js";
import { findUserById } from "../store/users.js";
import type { CoreContext } from "./context.js";
import { AuthError } from "./errors.js";
import { checkMayAddWayIn, type LinkingSession } from "./login-policy.js";
import { joinPeople } from "./person-join.js";
import { findPeopleByAddress } from "./logins.js";

/**
 * Account linking in verified-email mode (SuperTokens' safe mode, recipes notes §4.2): a login
 * method joins an existing person only when the new method has the address verified AND the
 * person has it verified on one of their methods. Everything else that could let one address sit
 * on two people, or let an unverified method reach someone else's account, is refused. With
 * `config.accountLinking` off, every method is a person of its own (the behaviour before linking).
 * These functions run inside the caller's write transaction, so the check and the write it allows
 * see the same rows.
 */

/** What may happen to a login method that is about to be created. */
export type NewMethodDecision = { kind: "new" } | { kind: "join"; personId: string } | { kind: "refused" };

/**
 * Rules 1–3 for a method being created with `email` (`verified`: the method proves the address,
 * like a provider's email_verified or a reset link). No one else has the address: a new person.
 * Otherwise only a verified method may go on, and only into the one person who has the address
 * verified; an unverified method beside someone else's address would be an account waiting to be
 * taken over (or to take one over) once either side verifies.
 */
export async function decideNewMethod(db: Kysely<DB>, ctx: CoreContext, email: string, verified: boolean): Promise<NewMethodDecision> {
  if (!ctx.config.accountLinking) return { kind: "new" };
  await people.lockAddress(db, email);
  const others = await findPeopleByAddress(db, ctx.logins, email);
  if (others.length === 0) return { kind: "new" };
  if (!verified) return { kind: "refused" };
  // Two people with one verified address can only come from before linking: an operator decides.
  if (others.length === 1 && others[0].verified) return { kind: "join", personId: others[0].personId };
  return { kind: "refused" };
}

/** What may happen when an existing method signs in (or becomes verified). */
export type ExistingMethodDecision = { kind: "ok" } | { kind: "join"; personId: string } | { kind: "refused" };

/**
 * Rules 5–6 for an existing method of recipe user `recipeUserId` with `email`. If another person
 * has the address too: an unverified method is refused (ERR_CODE_008/004: the owner of the other
 * account may be the real owner of the address); a verified one joins that person when they have
 * it verified as well. An address verified on any method of the method's own person counts.
 */
export async function decideExistingMethod(db: Kysely<DB>, ctx: CoreContext, p: { recipeUserId: string; email: string; verified: boolean }): Promise<ExistingMethodDecision> {
  if (!ctx.config.accountLinking) return { kind: "ok" };
  await people.lockAddress(db, p.email);
  const mine = await people.findPersonId(db, p.recipeUserId);
  if (mine === undefined) return { kind: "ok" };
  const others = (await findPeopleByAddress(db, ctx.logins, p.email)).filter((o) => o.personId !== mine);
  if (others.length === 0) return { kind: "ok" };
  const verified = p.verified || (await people.isVerifiedForPerson(db, mine, p.email));
  if (!verified) return { kind: "refused" };
  if (others.length === 1 && others[0].verified) return { kind: "join", personId: others[0].personId };
  return { kind: "ok" };
}

/**
 * Makes the person of `recipeUserId` and person `personId` one person (core/person-join.ts keeps
 * everything of both). Two people that both existed keep the older one's id: that is the id the
 * app has known longest.
 */
export async function joinPerson(db: Kysely<DB>, ctx: CoreContext, recipeUserId: string, personId: string, source: string): Promise<void> {
  const mine = await people.findPersonId(db, recipeUserId);
  if (mine === undefined || mine === personId) return;
  const [a, b] = await Promise.all([findUserById(db, mine), findUserById(db, personId)]);
  const mineIsOlder = a !== undefined && b !== undefined && (Number(a.time_joined) < Number(b.time_joined) || (Number(a.time_joined) === Number(b.time_joined) && a.id < b.id));
  const [from, to] = mineIsOlder ? [personId, mine] : [mine, personId];
  await joinPeople(db, ctx, { from, to, recipeUserId, source });
}

/** Applies rule 5 after `recipeUserId` got `email` verified: joins the person who has it verified. */
export async function linkAfterVerification(db: Kysely<DB>, ctx: CoreContext, recipeUserId: string, email: string, source: string): Promise<void> {
  const d = await decideExistingMethod(db, ctx, { recipeUserId, email, verified: true });
  if (d.kind === "join") await joinPerson(db, ctx, recipeUserId, d.personId, source);
}

/** Why adding a method to the signed-in person was refused (SuperTokens' LINKING_TO_SESSION_USER_FAILED reasons). */
export type SessionLinkRefusal = "EMAIL_VERIFICATION_REQUIRED" | "RECIPE_USER_ID_ALREADY_LINKED_WITH_ANOTHER_PRIMARY_USER_ID_ERROR" | "ACCOUNT_INFO_ALREADY_ASSOCIATED_WITH_ANOTHER_PRIMARY_USER_ID_ERROR";
export type SessionLinkDecision = { kind: "join"; personId: string; verified: boolean } | { kind: "refused"; why: SessionLinkRefusal };

/**
 * `shouldTryLinkingWithSessionUser: true`: may the method (new, or the existing `recipeUserId`)
 * with `email` join the signed-in person? Signing in with one of the person's own methods adds
 * nothing. Otherwise the session must pass core/login-policy.ts (second factor complete, a fresh
 * sign-in, a person with a verified address), no one else may have the address, the method may not
 * be part of another person already, and the address must be verified, by the method itself or on
 * one of the person's methods (then the new method counts as verified too).
 */
export async function decideSessionLink(db: Kysely<DB>, ctx: CoreContext, p: { session: LinkingSession; email: string; verified: boolean; recipeUserId?: string }): Promise<SessionLinkDecision | undefined> {
  await people.lockAddress(db, p.email);
  const personId = await people.findPersonId(db, p.session.userId);
  if (personId === undefined) return undefined;
  let own: string | undefined;
  if (p.recipeUserId !== undefined) {
    own = await people.findPersonId(db, p.recipeUserId);
    if (own === personId) return { kind: "join", personId, verified: true };
  }
  if ((await checkMayAddWayIn(db, ctx, personId, p.session)) !== "ok") return { kind: "refused", why: "EMAIL_VERIFICATION_REQUIRED" };
  if (own !== undefined && (await people.findPersonMemberIds(db, own)).length > 1) return { kind: "refused", why: "RECIPE_USER_ID_ALREADY_LINKED_WITH_ANOTHER_PRIMARY_USER_ID_ERROR" };
  const others = (await findPeopleByAddress(db, ctx.logins, p.email)).filter((o) => o.personId !== personId && o.personId !== own);
  if (others.length > 0) return { kind: "refused", why: "ACCOUNT_INFO_ALREADY_ASSOCIATED_WITH_ANOTHER_PRIMARY_USER_ID_ERROR" };
  const verified = p.verified || (await people.isVerifiedForPerson(db, personId, p.email));
  if (!verified) return { kind: "refused", why: "EMAIL_VERIFICATION_REQUIRED" };
  return { kind: "join", personId, verified };
}

/** What a sign-in-or-up method (one call both signs up and signs in) may do, with the refusal reason to send. */
export type SignInUpDecision = { kind: "new" | "ok" } | { kind: "join"; personId: string; verified?: boolean } | { kind: "refused"; reason: string };

/** A method's fixed reason strings: sign-up refused, sign-in refused, linking to the session user refused. */
export interface SignInUpReasons { signUp: string; signIn: string; link: Record<SessionLinkRefusal, string> }

/**
 * The linking decision of a sign-in-or-up inside its write transaction: with `sessionUserId` the
 * method is to join the signed-in person (`session`; 401 when that session's user is gone); otherwise rules
 * 1–3 for a new method (`recipeUserId` undefined) or 5–6 for an existing one.
 */
export async function decideSignInUp(tx: Kysely<DB>, ctx: CoreContext, p: { session?: LinkingSession; email: string; verified: boolean; recipeUserId?: string }, reasons: SignInUpReasons): Promise<SignInUpDecision> {
  if (p.session !== undefined && ctx.config.accountLinking) {
    const d = await decideSessionLink(tx, ctx, { session: p.session, email: p.email, verified: p.verified, recipeUserId: p.recipeUserId });
    if (d === undefined) throw new AuthError("UNAUTHORISED", "unauthorised", { clearTokens: true });
    return d.kind === "refused" ? { kind: "refused", reason: reasons.link[d.why] } : d;
  }
  if (p.recipeUserId === undefined) {
    const d = await decideNewMethod(tx, ctx, p.email, p.verified);
    return d.kind === "refused" ? { kind: "refused", reason: reasons.signUp } : d;
  }
  const d = await decideExistingMethod(tx, ctx, { recipeUserId: p.recipeUserId, email: p.email, verified: p.verified });
  return d.kind === "refused" ? { kind: "refused", reason: reasons.signIn } : d;
}

export type SettleResult = { kind: "ok" } | { kind: "refused" } | { kind: "link-refused"; why: SessionLinkRefusal };

/**
 * After an existing method proved its credentials: rule 6 (an unverified method whose address
 * belongs to someone else is refused), rule 5 (a verified one joins the person who has the address
 * verified), or, with `session`, joining the signed-in person. The decision is read first; a
 * write transaction (deciding again inside it) opens only when a link is to be made, so an
 * ordinary sign-in writes nothing more than before.
 */
export async function settleExistingMethod(ctx: CoreContext, p: { recipeUserId: string; email: string; verified: boolean; session?: LinkingSession; source: string }): Promise<SettleResult> {
  const run = async (db: Kysely<DB>, write: boolean): Promise<SettleResult | "write"> => {
    if (p.session !== undefined && ctx.config.accountLinking) {
      const d = await decideSessionLink(db, ctx, { session: p.session, email: p.email, verified: p.verified, recipeUserId: p.recipeUserId });
      if (d === undefined) throw new AuthError("UNAUTHORISED", "unauthorised", { clearTokens: true });
      if (d.kind === "refused") return { kind: "link-refused", why: d.why };
      if (d.personId === (await people.findPersonId(db, p.recipeUserId))) return { kind: "ok" };
      if (!write) return "write";
      await joinPerson(db, ctx, p.recipeUserId, d.personId, p.source);
      return { kind: "ok" };
    }
    const d = await decideExistingMethod(db, ctx, p);
    if (d.kind !== "join") return d;
    if (!write) return "write";
    await joinPerson(db, ctx, p.recipeUserId, d.personId, p.source);
    return { kind: "ok" };
  };
  const first = await run(ctx.store.db, false);
  if (first !== "write") return first;
  return (await ctx.store.writeTx((tx) => run(tx, true))) as SettleResult;
}

/**
 * A method's ERR_CODE numbers ("009") for a failed link to the session user, one per refusal in the
 * order EMAIL_VERIFICATION_REQUIRED, RECIPE_USER_ID_ALREADY_LINKED…, ACCOUNT_INFO_ALREADY_ASSOCIATED…
 * (each method has its own codes). The method's reasons are built from them, and the hosted pages
 * tell its refusals apart by them, so they are written once.
 */
export type LinkRefusalCodes = readonly [verificationRequired: string, alreadyLinked: string, alreadyAssociated: string];

/** supertokens-node's reasons for a failed link to the session user: the same text, ending in the method's code. */
export function describeLinkRefusals(codes: LinkRefusalCodes): Record<SessionLinkRefusal, string> {
  const say = (code: string) => `Cannot sign in / up due to security reasons. Please contact support. (ERR_CODE_${code})`;
  return {
    EMAIL_VERIFICATION_REQUIRED: say(codes[0]),
    RECIPE_USER_ID_ALREADY_LINKED_WITH_ANOTHER_PRIMARY_USER_ID_ERROR: say(codes[1]),
    ACCOUNT_INFO_ALREADY_ASSOCIATED_WITH_ANOTHER_PRIMARY_USER_ID_ERROR: say(codes[2]),
  };
}
