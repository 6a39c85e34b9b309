import { recordLoginAdded, type LinkingSession } from "../../core/login-policy.js";
import type { Kysely } from "kysely";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { isUniqueViolation } from "../../store/database.js";
import { insertEvent } from "../../store/events.js";
import { setPersonLocale } from "../../store/person-locales.js";
import type { DB } from "../../store/schema.js";
import * as users from "../../store/users.js";
import type { CoreContext } from "../../core/context.js";
import { AuthError } from "../../core/errors.js";
import { decideNewMethod, decideSessionLink, settleExistingMethod, type NewMethodDecision } from "../../core/linking.js";
import { getUser, type UserView } from "../../core/users.js";
import { SIGN_IN_LINK_REFUSED, SIGN_IN_NOT_ALLOWED, SIGN_UP_LINK_REFUSED, SIGN_UP_NOT_ALLOWED } from "./refusals.js";
import { takeOptions, verifyAuthentication, verifyRegistration, type NewCredential, type OptionsProblem, type VerifyProblem } from "./relying-party.js";
import * as store from "./store.js";

export type PasskeySignUpResult =
  | { status: "OK"; user: UserView; recipeUserId: string }
  | { status: OptionsProblem | "EMAIL_ALREADY_EXISTS_ERROR" }
  | VerifyProblem
  | { status: "SIGN_UP_NOT_ALLOWED"; reason: string };

export type PasskeySignInResult =
  | { status: "OK"; user: UserView; recipeUserId: string }
  | { status: "INVALID_CREDENTIALS_ERROR" }
  | { status: "SIGN_IN_NOT_ALLOWED"; reason: string };

/**
 * Passkey sign-up (POST /webauthn/signup): the address is the one the registration options were
 * made for, unverified (like a password sign-up) until a mail proves it. Linking follows
 * core/linking.ts: a new person, the signed-in person (`session`), or refused when someone
 * else has the address. One write transaction: the login, its first passkey and the event.
 */
export async function signUpWithPasskey(ctx: CoreContext, input: { optionsId: string; credential: RegistrationResponseJSON; session?: LinkingSession; source?: string; locale?: string }): Promise<PasskeySignUpResult> {
  const options = await takeOptions(ctx, input.optionsId, "registration");
  if (typeof options === "string") return { status: options };
  const email = options.email;
  if (!email) return { status: "INVALID_OPTIONS_ERROR" };
  if (await store.findAccountByEmail(ctx.store.db, email)) return { status: "EMAIL_ALREADY_EXISTS_ERROR" };
  const verified = await verifyRegistration(ctx, options, input.credential);
  if ("status" in verified) return verified;
  const decide = async (db: Kysely<DB>): Promise<Exclude<NewMethodDecision, { kind: "refused" }> | { kind: "refused"; reason: string }> => {
    if (input.session === undefined || !ctx.config.accountLinking) {
      const d = await decideNewMethod(db, ctx, email, false);
      return d.kind === "refused" ? { kind: "refused", reason: SIGN_UP_NOT_ALLOWED } : d;
    }
    const d = await decideSessionLink(db, ctx, { session: input.session, email, verified: false });
    if (d === undefined) throw new AuthError("UNAUTHORISED", "unauthorised", { clearTokens: true });
    return d.kind === "refused" ? { kind: "refused", reason: SIGN_UP_LINK_REFUSED[d.why] } : { kind: "join", personId: d.personId };
  };
  const early = await decide(ctx.store.db);
  if (early.kind === "refused") return { status: "SIGN_UP_NOT_ALLOWED", reason: early.reason };
  const id = options.user_handle ?? "";
  const now = ctx.clock.now();
  const source = input.source ?? "api";
  try {
    const refused = await ctx.store.writeTx(async (tx) => {
      const d = await decide(tx);
      if (d.kind === "refused") return d.reason;
      await users.insertUser(tx, { id, email, time_joined: now, updated_at: now, primary_user_id: d.kind === "join" ? d.personId : null });
      await store.insertAccount(tx, { user_id: id, email, created_at: now });
      await insertCredentialRow(tx, id, ctx.config.webauthnRpId, verified, now);
      // Joining the signed-in person needs the address verified on their side: it counts here too.
      if (d.kind === "join") await users.markEmailVerified(tx, id, email, now);
      // A new person's locale (the page's, or the browser's), which their mail is written in; one joined to a person keeps theirs.
      if (input.locale && d.kind !== "join") await setPersonLocale(tx, id, input.locale, now);
      await insertEvent(tx, { at: now, type: "user.signed_up", userId: d.kind === "join" ? d.personId : id, data: { method: "webauthn", recipeUserId: id, credentialId: verified.id, source } });
      if (d.kind === "join") await recordLoginAdded(tx, ctx, { personId: d.personId, recipeUserId: id, source });
      return undefined;
    });
    if (refused !== undefined) return { status: "SIGN_UP_NOT_ALLOWED", reason: refused };
  } catch (err) {
    // The address (a concurrent sign-up) or the passkey itself is taken already.
    if (isUniqueViolation(err)) return (await store.findCredential(ctx.store.db, verified.id)) ? { status: "INVALID_CREDENTIALS_ERROR" } : { status: "EMAIL_ALREADY_EXISTS_ERROR" };
    throw err;
  }
  const user = await getUser(ctx, id);
  return { status: "OK", user: user!, recipeUserId: id };
}

/**
 * Passkey sign-in (POST /webauthn/signin). Every failure (options unknown, used, expired; passkey
 * unknown; signature, origin, RP ID or counter wrong) is the same INVALID_CREDENTIALS_ERROR, as in
 * supertokens-node. The counter moves forward in a conditional update: of two sign-ins that
 * verified against the same stored counter, only one goes on.
 */
export async function signInWithPasskey(ctx: CoreContext, input: { optionsId: string; credential: AuthenticationResponseJSON; session?: LinkingSession }): Promise<PasskeySignInResult> {
  const invalid = { status: "INVALID_CREDENTIALS_ERROR" } as const;
  const options = await takeOptions(ctx, input.optionsId, "authentication");
  if (typeof options === "string") return invalid;
  const cred = await store.findCredential(ctx.store.db, input.credential.id);
  if (!cred) return invalid;
  const checked = await verifyAuthentication(ctx, options, cred, input.credential);
  if ("status" in checked) return invalid;
  const now = ctx.clock.now();
  const moved = await ctx.store.writeTx((tx) => store.advanceCounter(tx, cred.id, Number(cred.counter), checked.newCounter, now));
  if (!moved) return invalid;
  const account = await store.findAccountByUserId(ctx.store.db, cred.user_id);
  if (!account) return invalid;
  const settled = await settleExistingMethod(ctx, { recipeUserId: cred.user_id, email: account.email, verified: false, session: input.session, source: "signin" });
  if (settled.kind === "refused") return { status: "SIGN_IN_NOT_ALLOWED", reason: SIGN_IN_NOT_ALLOWED };
  if (settled.kind === "link-refused") return { status: "SIGN_IN_NOT_ALLOWED", reason: SIGN_IN_LINK_REFUSED[settled.why] };
  const user = await getUser(ctx, cred.user_id);
  if (!user) return invalid;
  return { status: "OK", user, recipeUserId: cred.user_id };
}

/** Stores a verified passkey for recipe user `userId` (inside the caller's transaction). */
export async function insertCredentialRow(tx: Kysely<DB>, userId: string, rpId: string, c: NewCredential, now: number): Promise<void> {
  await store.insertCredential(tx, {
    id: c.id, user_id: userId, rp_id: rpId, public_key: c.publicKey, counter: c.counter,
    transports: c.transports ? JSON.stringify(c.transports) : null, created_at: now, last_used_at: null,
  });
}

/** Whether a passkey login exists for the address (GET /webauthn/email/exists). */
export async function passkeyEmailExists(ctx: CoreContext, email: string): Promise<boolean> {
  return (await store.findAccountByEmail(ctx.store.db, email)) !== undefined;
}
