import { recordLoginAdded, type LinkingSession } from "../../core/login-policy.js";
import { countEnded, endWaysIn } from "../../core/ways-in.js";
import { isUniqueViolation } from "../../store/database.js";
import { classifyOutage, CommitOutcomeUnknownError } from "../../store/outage.js";
import * as tokens from "../../store/one-time-tokens.js";
import { insertEvent } from "../../store/events.js";
import { setPersonLocale } from "../../store/person-locales.js";
import * as users from "../../store/users.js";
import { createId } from "../../util/random.js";
import type { CoreContext } from "../../core/context.js";
import type { PasswordAccounts } from "../../core/account-operations.js";
import { canonicalEmail, isValidEmail } from "../../core/emails.js";
import { insertPersonTop } from "../../core/import-parts.js";
import { notifyOutbox, queueMail, websiteLink } from "../../core/mail-queue.js";
import { checkNewPassword, checkPasswordPolicy, hashPassword, verifyPassword } from "../../core/passwords.js";
import { openSession, type OpenedSession, type SessionStart } from "../../core/sessions.js";
import { getUser, type FieldError, type UserView } from "../../core/users.js";
import type { Kysely } from "kysely";
import type { DB } from "../../store/schema.js";
import { AuthError } from "../../core/errors.js";
import { decideNewMethod, decideSessionLink, settleExistingMethod, type NewMethodDecision } from "../../core/linking.js";
import { SIGN_IN_LINK_REFUSED, SIGN_IN_NOT_ALLOWED, SIGN_UP_LINK_REFUSED, SIGN_UP_NOT_ALLOWED } from "./refusals.js";
import * as credentials from "./store.js";

/** `user` is the person; `recipeUserId` the email/password login's own user (the session's `rsub`). */
export type SignUpResult =
  | { status: "OK"; user: UserView; recipeUserId: string; opened?: OpenedSession }
  | { status: "FIELD_ERROR"; formFields: FieldError[] }
  | { status: "SIGN_UP_NOT_ALLOWED"; reason: string };
export type SignInResult =
  | { status: "OK"; user: UserView; recipeUserId: string }
  | { status: "WRONG_CREDENTIALS_ERROR" }
  | { status: "SIGN_IN_NOT_ALLOWED"; reason: string };

/** What an old system said about a user it vouched for (lazy migration): its id, and its fields of an import record's top as the rooms read them (readPersonTop). */
export interface MovedIn { id?: string; top: ReadonlyMap<string, unknown> }

export const EMAIL_EXISTS = "This email already exists. Please sign in instead.";

/** Validates sign-up input; errors are listed password first, like the SuperTokens SDK. */
export function validateSignUp(ctx: CoreContext, rawEmail: string, password: string, policy = true): { email: string; errors: FieldError[] } {
  const email = canonicalEmail(rawEmail);
  const errors: FieldError[] = [];
  if (password === "") errors.push({ id: "password", error: "Field is not optional" });
  else if (policy) {
    const why = checkPasswordPolicy(password, { minLength: ctx.config.passwordMinLength, email: isValidEmail(email) ? email : undefined });
    if (why) errors.push({ id: "password", error: why });
  }
  if (email === "") errors.push({ id: "email", error: "Field is not optional" });
  else if (!isValidEmail(email)) errors.push({ id: "email", error: "Email is invalid" });
  return { email, errors };
}

/**
 * Creates an email/password login: a person of its own, or, with account linking, a method of the
 * signed-in person (`session`, shouldTryLinkingWithSessionUser) or of the person who has the
 * address verified when this login proves it (`verified`, e.g. an administrator's). An unverified
 * sign-up for an address someone else has is refused (ERR_CODE_007): the user is led to "reset
 * password", which proves the address and adds the password to that person. The password is
 * hashed before the write transaction opens; the linking decision is taken again inside it. A
 * concurrent sign-up with the same address loses on the unique index and gets the same answer.
 * `movedIn` is a user the old system vouched for (lazy-migration.ts): the password it checked is kept
 * whatever today's policy says (refusing it would lock them out), with its old id (a taken id loses
 * on the primary key, like a taken address) and its metadata (written by the rooms' import parts),
 * in the same transaction.
 * `start`: the new login's first session is opened in that transaction too (one commit, one durable
 * sync for a sign-up); the caller signs its access token (issueSession) and answers with it.
 * `within`: the caller's own change (joining an organization by invitation), in the same
 * transaction before the session opens; what it throws rolls the sign-up back.
 */
export async function signUpWithPassword(ctx: CoreContext, input: { email: string; password: string; verified?: boolean; source?: string; session?: LinkingSession; movedIn?: MovedIn; start?: SessionStart; within?: (tx: Kysely<DB>, personId: string) => Promise<void>; locale?: string }): Promise<SignUpResult> {
  const { email, errors } = validateSignUp(ctx, input.email, input.password, input.movedIn === undefined);
  if (errors.length) return { status: "FIELD_ERROR", formFields: errors };
  // The rooms' checks (a breached-password lookup) after the form is otherwise valid: a lookup
  // elsewhere is not spent on a sign-up refused anyway.
  const breached = input.movedIn === undefined ? await checkNewPassword(ctx.passwordChecks, input.password, { minLength: ctx.config.passwordMinLength, email }) : null;
  if (breached) return { status: "FIELD_ERROR", formFields: [{ id: "password", error: breached }] };
  const exists: SignUpResult = { status: "FIELD_ERROR", formFields: [{ id: "email", error: EMAIL_EXISTS }] };
  if (await credentials.findCredentialByEmail(ctx.store.db, email)) return exists;
  const decide = async (db: Kysely<DB>): Promise<Exclude<NewMethodDecision, { kind: "refused" }> | { kind: "refused"; reason: string }> => {
    if (input.session === undefined || !ctx.config.accountLinking) {
      const d = await decideNewMethod(db, ctx, email, input.verified === true);
      return d.kind === "refused" ? { kind: "refused", reason: SIGN_UP_NOT_ALLOWED } : d;
    }
    const d = await decideSessionLink(db, ctx, { session: input.session, email, verified: input.verified === true });
    if (d === undefined) throw new AuthError("UNAUTHORISED", "unauthorised", { clearTokens: true });
    return d.kind === "refused" ? { kind: "refused", reason: SIGN_UP_LINK_REFUSED[d.why] } : { kind: "join", personId: d.personId };
  };
  const early = await decide(ctx.store.db);
  if (early.kind === "refused") return { status: "SIGN_UP_NOT_ALLOWED", reason: early.reason };
  const hash = await hashPassword(input.password, ctx.config.bcryptCost);
  const now = ctx.clock.now();
  const id = input.movedIn?.id ?? createId();
  try {
    const r = await ctx.store.writeTx(async (tx) => {
      const d = await decide(tx);
      if (d.kind === "refused") return { refused: d.reason ?? SIGN_UP_NOT_ALLOWED };
      await users.insertUser(tx, { id, email, time_joined: now, updated_at: now, primary_user_id: d.kind === "join" ? d.personId : null });
      await credentials.insertCredential(tx, { user_id: id, email, password_hash: hash, created_at: now, updated_at: now });
      // Joining a person needs the address verified on their side: it counts for this login too.
      if (input.verified || d.kind === "join") await users.markEmailVerified(tx, id, email, now);
      // A new person's locale (the page's, or the browser's), which their mail is written in; one joined to a person keeps theirs.
      if (input.locale && d.kind !== "join") await setPersonLocale(tx, id, input.locale, now);
      if (input.movedIn) await insertPersonTop(tx, ctx.importParts, input.movedIn.top, { id, joined: now }, { now, secret: ctx.config.secret });
      await insertEvent(tx, { at: now, type: "user.signed_up", userId: d.kind === "join" ? d.personId : id, data: { method: "emailpassword", recipeUserId: id, source: input.source ?? "api" } });
      if (d.kind === "join") await recordLoginAdded(tx, ctx, { personId: d.personId, recipeUserId: id, source: input.source ?? "api" });
      await input.within?.(tx, d.kind === "join" ? d.personId : id);
      const opened = input.start ? await openSession(tx, ctx, id, input.start, { newUser: true }) : undefined;
      return { user: (await getUser(ctx, id, tx))!, opened };
    });
    if (r.refused !== undefined) return { status: "SIGN_UP_NOT_ALLOWED", reason: r.refused };
    return { status: "OK", user: r.user!, recipeUserId: id, opened: r.opened };
  } catch (err) {
    if (isUniqueViolation(err)) return exists;
    throw describeInterruptedSignUp(err, false);
  }
}

/**
 * What to tell a client whose sign-up met a database outage, once the account was written (or its
 * COMMIT was lost on the way, and it may have been): never "nothing happened" (a 500, or a retry
 * that then meets "email already exists"). Any other error passes through unchanged.
 */
export function describeInterruptedSignUp(err: unknown, committed: boolean): unknown {
  if (!committed && !(err instanceof CommitOutcomeUnknownError)) return err;
  if (committed && !classifyOutage(err)) return err;
  const message = committed
    ? "The account was created, but the database went away before a session could start: please sign in in a moment."
    : "The connection to the database was lost while the account was being saved: it may exist. Please try signing in in a moment before signing up again.";
  return new AuthError("UNAVAILABLE", message, { retryAfterSeconds: 1, cause: err });
}

/**
 * Checks an email and password. Unknown email, wrong password and an address with other logins
 * only all get WRONG_CREDENTIALS_ERROR after one bcrypt verification, so neither body nor time
 * tells them apart. A hash of another scheme or cost is upgraded after a successful check.
 */
export async function signInWithPassword(ctx: CoreContext, input: { email: string; password: string; session?: LinkingSession }): Promise<SignInResult> {
  const email = canonicalEmail(input.email);
  const cred = isValidEmail(email) ? await credentials.findCredentialByEmail(ctx.store.db, email) : undefined;
  const stored = cred?.password_hash ?? (await ctx.dummyHash);
  const result = await verifyPassword(input.password, stored, ctx.config.bcryptCost);
  if (!cred || !result.ok) return { status: "WRONG_CREDENTIALS_ERROR" };
  if (result.needsRehash) {
    // Best effort: the password was right, so a failed upgrade (say, a locked database) must not
    // turn a correct sign-in into an error; the next sign-in tries again.
    try {
      const fresh = await hashPassword(input.password, ctx.config.bcryptCost);
      await ctx.store.writeTx((tx) => credentials.replacePasswordHash(tx, cred.user_id, stored, fresh, ctx.clock.now()));
    } catch (err) {
      ctx.logger.warn("password rehash failed", { userId: cred.user_id, err });
    }
  }
  // Only now, after the password proved right: a refusal must not tell a guesser anything. Whether
  // the address is verified is looked up (for the whole person) only when someone else has it.
  const settled = await settleExistingMethod(ctx, { recipeUserId: cred.user_id, email, verified: false, session: input.session, source: "signin" });
  if (settled.kind === "refused") return { status: "SIGN_IN_NOT_ALLOWED", reason: SIGN_IN_NOT_ALLOWED };
  if (settled.kind === "link-refused") return { status: "SIGN_IN_NOT_ALLOWED", reason: SIGN_IN_LINK_REFUSED[settled.why] };
  const user = await getUser(ctx, cred.user_id);
  if (!user) return { status: "WRONG_CREDENTIALS_ERROR" };
  return { status: "OK", user, recipeUserId: cred.user_id };
}

export type SetPasswordResult = { status: "OK"; revokedSessions: number } | { status: "FIELD_ERROR"; formFields: FieldError[] } | { status: "NO_PASSWORD_LOGIN" };

/**
 * Sets a new password for a user who has an email/password login (an administrator's reset), in
 * one transaction: the new hash, every way in of the person ended (sessions, apps' grants:
 * core/ways-in.ts; whoever knew the old password is out),
 * every outstanding password-reset token deleted (a reset link mailed before must not undo the
 * administrator's choice), the event, and the "password changed" notice queued, as after a reset
 * by token. The outbox is notified after commit.
 */
export async function setPassword(ctx: CoreContext, userId: string, password: string, source = "api"): Promise<SetPasswordResult> {
  const cred = await credentials.findCredentialByUserId(ctx.store.db, userId);
  if (!cred) return { status: "NO_PASSWORD_LOGIN" };
  const why = await checkNewPassword(ctx.passwordChecks, password, { minLength: ctx.config.passwordMinLength, email: cred.email });
  if (why) return { status: "FIELD_ERROR", formFields: [{ id: "password", error: why }] };
  const hash = await hashPassword(password, ctx.config.bcryptCost);
  const now = ctx.clock.now();
  const revoked = await ctx.store.writeTx(async (tx) => {
    await credentials.updatePasswordHash(tx, userId, hash, now);
    const ended = countEnded(await endWaysIn(tx, ctx, { userId, reason: "password_changed", source }));
    const n = ended.sessions ?? 0;
    const deletedResetTokens = await tokens.deleteUserTokens(tx, userId, "password_reset");
    await insertEvent(tx, { at: now, type: "user.password_changed", userId, data: { source, revokedSessions: n, endedWaysIn: ended, deletedResetTokens } });
    await queueMail(tx, ctx, { kind: "password_changed", to: cred.email, vars: { link: websiteLink(ctx, "reset-password") } });
    return n;
  });
  notifyOutbox(ctx);
  return { status: "OK", revokedSessions: revoked };
}


/**
 * What other rooms may do with password accounts (Room.accounts.password, core/account-operations.ts):
 * the functions above, with "this address exists" as an outcome of its own rather than an English field error.
 */
export const passwordAccounts: PasswordAccounts = {
  signUp: async (ctx, input) => {
    const r = await signUpWithPassword(ctx, input);
    return r.status === "FIELD_ERROR" && r.formFields.some((f) => f.id === "email" && f.error === EMAIL_EXISTS) ? { status: "ADDRESS_EXISTS" } : r;
  },
  signIn: (ctx, input) => signInWithPassword(ctx, input),
  setPassword,
  findLogin: async (db, userId) => {
    const cred = await credentials.findCredentialByUserId(db, userId);
    return cred && { userId: cred.user_id, email: cred.email };
  },
  describeInterruptedSignUp,
};
