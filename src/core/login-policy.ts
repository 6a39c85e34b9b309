import type { Kysely } from "kysely";
import { afterCommit } from "../store/after-commit.js";
import { insertEvent } from "../store/events.js";
import * as people from "../store/people.js";
import type { DB } from "../store/schema.js";
import { findUserById } from "../store/users.js";
import type { CoreContext } from "./context.js";
import { AuthError } from "./errors.js";
import { readLogins, type Login, type LoginKind } from "./logins.js";
import { notifyOutbox, queueMail, websiteLink } from "./mail-queue.js";
import { assertMfaComplete, readMfaState } from "./mfa.js";
import { actorOf, supportSessionRefusal } from "./sessions.js";
import { findSessionActor } from "../store/sessions.js";

/**
 * The one policy every way of adding a way into a person's account goes through
 * (docs/account-linking.md, "Adding a login to a person"): `shouldTryLinkingWithSessionUser` on
 * every method, adding a passkey from the account page, allowing an app (an OAuth consent, a grant
 * that lasts), and (without the session checks) an operator's link. A session may add one only
 * when its second factor is complete, it proved itself recently, and its person has a verified
 * address; the person is mailed whenever a login joins them. Ending them is core/ways-in.ts.
 */

/** The signed-in session that asks to add a login to its person. */
export interface LinkingSession {
  /** The login method the session was started with (`rsub`). */
  userId: string;
  sessionHandle: string;
}

/** How recent the session's sign-in (or a factor it completed) must be to add a login. */
export const LINK_FRESHNESS_MS = 5 * 60_000;

/** The claim id of the 403 a session that is not fresh enough gets (docs/api.md). */
export const FRESH_SIGN_IN_CLAIM = "st-fresh-sign-in";

/**
 * The session checks before a login (or an app's grant) joins the session's person. Throws the SDKs' 403 invalid claim
 * when the second factor is not complete (`st-mfa`, as supertokens-node does) or when the session
 * is older than LINK_FRESHNESS_MS without a newer factor (`st-fresh-sign-in`: sign in again).
 * "EMAIL_VERIFICATION_REQUIRED" when the person has no verified address: in SuperTokens' terms
 * the session user cannot become primary, and a login added now could be an attacker's waiting
 * for the real owner of the address (a pre-registered account).
 */
export async function checkMayAddWayIn(db: Kysely<DB>, ctx: CoreContext, personId: string, session: LinkingSession): Promise<"ok" | "EMAIL_VERIFICATION_REQUIRED"> {
  // Someone else acts in the session (a support session): no login and no app's grant joins the person through it.
  if (actorOf(await findSessionActor(db, session.sessionHandle))) throw supportSessionRefusal();
  assertMfaComplete(await readMfaState(db, ctx, personId, session.sessionHandle));
  const proof = await people.findSessionLastProof(db, session.sessionHandle);
  if (proof === undefined) throw new AuthError("UNAUTHORISED", "unauthorised", { clearTokens: true });
  if (ctx.clock.now() - proof > LINK_FRESHNESS_MS) {
    throw new AuthError("INVALID_CLAIM", "invalid claim", {
      claimValidationErrors: [{ id: FRESH_SIGN_IN_CLAIM, reason: { message: "Sign in again to add a sign-in method to this account", maxAgeInSeconds: LINK_FRESHNESS_MS / 1000 } }],
    });
  }
  return (await people.hasVerifiedAddress(db, personId)) ? "ok" : "EMAIL_VERIFICATION_REQUIRED";
}

/** How a mail names a login method: "a password (ada@example.com)", "a passkey (…)", "oidc sign-in (…)". */
export async function describeLogin(db: Kysely<DB>, kinds: readonly LoginKind[], recipeUserId: string): Promise<string> {
  const [user, [login]] = await Promise.all([findUserById(db, recipeUserId), readLogins(db, kinds, [recipeUserId])]);
  if (!user) return "a sign-in method";
  return `${login?.phrase ?? "a sign-in method"} (${user.email})`;
}

/**
 * Mails the person that login `recipeUserId` was added, at the addresses they had verified before
 * it (the new login's own address may be the intruder's), with a link to the account page; after
 * commit. `key`: not a login but a key was added to the existing login `recipeUserId` (a passkey
 * to a passkey login), named as its kind says a person signs in with it (LoginKind.names
 * .signsInWith); that login's own address was there before, so it is told too. The event is the
 * caller's.
 */
export async function notifyLoginAdded(tx: Kysely<DB>, ctx: CoreContext, personId: string, recipeUserId: string, opts: { key?: string } = {}): Promise<void> {
  const to = [...new Set((await people.findVerifiedAddresses(tx, personId)).filter((a) => opts.key !== undefined || a.userId !== recipeUserId).map((a) => a.email))];
  if (to.length === 0) return;
  const details = opts.key ?? await describeLogin(tx, ctx.logins, recipeUserId);
  for (const address of to) await queueMail(tx, ctx, { kind: "login_added", to: address, vars: { link: websiteLink(ctx, "account"), details } });
  afterCommit(tx, () => notifyOutbox(ctx));
}

/** A new login method was created straight into person `personId`: the `user.linked` event and the notice. */
export async function recordLoginAdded(tx: Kysely<DB>, ctx: CoreContext, p: { personId: string; recipeUserId: string; source: string }): Promise<void> {
  await insertEvent(tx, { at: ctx.clock.now(), type: "user.linked", userId: p.personId, data: { recipeUserId: p.recipeUserId, source: p.source } });
  await notifyLoginAdded(tx, ctx, p.personId, p.recipeUserId);
}

/**
 * A sign-in policy (Room.signInPolicy): a room that may refuse a sign-in by what it is (the login
 * used and its address), not by who the person is (a person gate refuses them whatever they use).
 * The kernel asks every policy when a session opens, in the sign-in's transaction (core/sessions.ts
 * openSession), so every method of every room is covered without any of them naming it, and a
 * sign-up whose session opens in the same transaction writes nothing when refused. The refusal's
 * words say what to use instead (the SSO room: "sign in with Acme SSO").
 */
export interface SignInPolicy {
  /** Why the sign-in with login `login` (of recipe user `userId`, person `personId`) is refused, or undefined. */
  refuses(db: Kysely<DB>, ctx: CoreContext, p: { userId: string; personId: string; email: string; login: () => Promise<Login | undefined>; now: number }): Promise<string | undefined>;
}

/** The stable word (AuthError details.reason) of a policy's refusal, whose message the answer keeps. */
export const POLICY_REFUSAL = "sign_in_policy";

/**
 * Throws SIGN_IN_REFUSED with the first policy's reason when one refuses (`newUser`: a sign-up, the
 * SDKs' SIGN_UP_NOT_ALLOWED; otherwise the method's own refusal status, set by the HTTP layer).
 */
export async function assertSignInAllowed(db: Kysely<DB>, ctx: CoreContext, p: { userId: string; personId: string; newUser: boolean }): Promise<void> {
  if (ctx.signInPolicies.length === 0) return;
  const user = await findUserById(db, p.userId);
  if (!user) return;
  let login: Promise<Login | undefined> | undefined;
  const read = () => (login ??= readLogins(db, ctx.logins, [p.userId]).then((ls) => ls.find((l) => l.recipeUserId === p.userId)));
  const now = ctx.clock.now();
  for (const policy of ctx.signInPolicies) {
    const why = await policy.refuses(db, ctx, { userId: p.userId, personId: p.personId, email: user.email, login: read, now });
    if (why !== undefined) throw new AuthError("SIGN_IN_REFUSED", why, { reason: POLICY_REFUSAL, ...(p.newUser ? { status: "SIGN_UP_NOT_ALLOWED" } : {}) });
  }
}
