import type { Kysely } from "kysely";
import type { CoreContext } from "../core/context.js";
import { canonicalEmail, isValidEmail } from "../core/emails.js";
import { badInput } from "../core/errors.js";
import { enforceMailLimits } from "../core/limits.js";
import { notifyOutbox, queueMail, websiteLink } from "../core/mail-queue.js";
import { issueTokenWithMail } from "../core/one-time-tokens.js";
import type { FieldError } from "../core/users.js";
import { insertEvent } from "../store/events.js";
import { findPersonLocale } from "../store/person-locales.js";
import * as tokens from "../store/one-time-tokens.js";
import { findPersonId, lockAddress } from "../store/people.js";
import type { DB } from "../store/schema.js";
import * as users from "../store/users.js";
import { hashToken } from "../util/random.js";
import { checkCurrentPassword, findPasswordLogin, findPasswordLoginOf, type AccountSubject } from "./reauth.js";
import { findPeopleByAddress, type LoginKind } from "../core/logins.js";
import { setUserEmail } from "./store.js";

export type EmailChangeRequestResult =
  | { status: "OK" }
  | { status: "WRONG_CREDENTIALS_ERROR" }
  | { status: "FIELD_ERROR"; formFields: FieldError[] }
  | { status: "NO_PASSWORD_LOGIN" };

/**
 * Starts an email change of the signed-in person's password login, proven by the password: a
 * confirmation link goes to the NEW address (the change happens only when it is opened, see
 * confirmEmailChange). When another person has that address, the answer is the same OK but no
 * mail is sent (an event records it): the form must not tell who has an account. The address of
 * a login without a password comes from where that login does (a provider), so a person without a
 * password login (LoginKind.password) cannot change it here.
 */
export async function requestEmailChange(ctx: CoreContext, s: AccountSubject, rawEmail: string, password: string): Promise<EmailChangeRequestResult> {
  const email = canonicalEmail(rawEmail);
  if (!isValidEmail(email)) return { status: "FIELD_ERROR", formFields: [{ id: "email", error: "Email is invalid" }] };
  const cred = await findPasswordLogin(ctx.store.db, ctx.logins, s.personId);
  if (!cred) return { status: "NO_PASSWORD_LOGIN" };
  if (!(await checkCurrentPassword(ctx, cred, password))) return { status: "WRONG_CREDENTIALS_ERROR" };
  if (email === cred.email) return { status: "FIELD_ERROR", formFields: [{ id: "email", error: "This is already your email address" }] };
  // The confirmation is a mail to an address the requester names: the same per-address budgets as
  // a verification mail (cooldown and hourly cap), counted whether or not the address is free.
  await enforceMailLimits(ctx, email, "verify");
  const now = ctx.clock.now();
  const sent = await ctx.store.writeTx(async (tx) => {
    await lockAddress(tx, email);
    if (await isTakenByAnother(tx, ctx.logins, email, s.personId)) {
      await insertEvent(tx, { at: now, type: "user.email_change_refused", userId: s.personId, data: { email, reason: "address_in_use" } });
      return false;
    }
    // The new address has no account yet: its mail is written in the requester's language.
    const locale = await findPersonLocale(tx, s.personId);
    await issueTokenWithMail(tx, ctx, { purpose: "email_change", page: "account", lifetimeMs: ctx.config.emailVerificationTokenLifetimeMs, userId: cred.recipeUserId, email, now, source: "account", locale });
    return true;
  });
  if (sent) notifyOutbox(ctx);
  return { status: "OK" };
}

export type EmailChangeResult = { status: "OK"; email: string } | { status: "EMAIL_CHANGE_INVALID_TOKEN_ERROR" } | { status: "EMAIL_ALREADY_USED_ERROR" };

/**
 * Completes an email change from the link mailed to the new address (no session needed: the link
 * may be opened on another device; the token is the proof). In one transaction: the token is
 * taken; the linking rules are checked again (core/linking.ts: one address never sits on two
 * people, so if someone else got the address meanwhile, nothing changes); the login's address
 * becomes the new one, verified (the mail proved it); the login's outstanding verification, reset
 * and change links die (they were for the old address); `user.email_changed`; and a notice to the
 * OLD address, so its owner learns of it.
 */
export async function confirmEmailChange(ctx: CoreContext, token: unknown): Promise<EmailChangeResult> {
  if (typeof token !== "string") throw badInput("token is required and must be a string");
  const now = ctx.clock.now();
  const result = await ctx.store.writeTx(async (tx): Promise<EmailChangeResult> => {
    const taken = await tokens.takeToken(tx, hashToken(token), "email_change");
    if (!taken || taken.expires_at <= now) return { status: "EMAIL_CHANGE_INVALID_TOKEN_ERROR" };
    await lockAddress(tx, taken.email);
    const cred = await findPasswordLoginOf(tx, ctx.logins, taken.user_id);
    const personId = await findPersonId(tx, taken.user_id);
    if (!cred || personId === undefined) return { status: "EMAIL_CHANGE_INVALID_TOKEN_ERROR" };
    if (await isTakenByAnother(tx, ctx.logins, taken.email, personId)) return { status: "EMAIL_ALREADY_USED_ERROR" };
    await cred.store.setEmail(tx, cred.recipeUserId, taken.email, now);
    await setUserEmail(tx, cred.recipeUserId, taken.email, now);
    await users.markEmailVerified(tx, cred.recipeUserId, taken.email, now);
    for (const purpose of ["email_change", "email_verification", "password_reset"] as const) await tokens.deleteUserTokens(tx, cred.recipeUserId, purpose);
    await insertEvent(tx, { at: now, type: "user.email_changed", userId: personId, data: { from: cred.email, to: taken.email, recipeUserId: cred.recipeUserId, source: "account" } });
    // The old address is no one's now: its notice is written in the person's language.
    await queueMail(tx, ctx, { kind: "email_changed", to: cred.email, vars: { link: websiteLink(ctx, "reset-password") }, locale: await findPersonLocale(tx, personId) });
    return { status: "OK", email: taken.email };
  });
  if (result.status === "OK") notifyOutbox(ctx);
  return result;
}

/** Whether someone other than this person has the address on any login method. */
async function isTakenByAnother(tx: Kysely<DB>, kinds: readonly LoginKind[], email: string, personId: string): Promise<boolean> {
  return (await findPeopleByAddress(tx, kinds, email)).some((p) => p.personId !== personId);
}
