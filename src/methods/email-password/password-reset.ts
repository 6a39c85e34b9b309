import type { Kysely } from "kysely";
import type { DB } from "../../store/schema.js";
import { findPersonId } from "../../store/people.js";
import { findPeopleByAddress } from "../../core/logins.js";
import * as users from "../../store/users.js";
import * as credentials from "./store.js";
import * as tokens from "../../store/one-time-tokens.js";
import { evictUnproven, isFirstProof } from "../../core/first-proof.js";
import { countEnded, endWaysIn } from "../../core/ways-in.js";
import { insertEvent } from "../../store/events.js";
import { createId, hashToken } from "../../util/random.js";
import type { CoreContext } from "../../core/context.js";
import { canonicalEmail, isUndeliverableEmail, isValidEmail } from "../../core/emails.js";
import { notifyOutbox, queueMail, websiteLink } from "../../core/mail-queue.js";
import { clearSignInFailures } from "../../core/limits.js";
import { issueTokenWithMail, requireTokenString } from "../../core/one-time-tokens.js";
import { checkNewPassword, checkPasswordPolicy, hashPassword } from "../../core/passwords.js";
import type { FieldError } from "../../core/users.js";
import { linkAfterVerification } from "../../core/linking.js";

export type PasswordResetRequestResult =
  | {
    status: "OK";
    /**
     * What happened; the HTTP answer never shows it (no account enumeration), the CLI does. Besides
     * these two, the outcome of the notice a kind of login sent instead (LoginKind.recoveryNotice).
     */
    outcome: "token_created" | "no_account" | (string & {});
    /** The recipe id of the kind of login whose notice went instead of a token (LoginKind.recoveryNotice). */
    noticeBy?: string;
    /** The raw token, only when one was created (the handler shows it in development mode only). */
    token?: string;
    expiresAt?: number;
  }
  | { status: "FIELD_ERROR"; formFields: FieldError[] };

/**
 * Seed #6. Issues a reset token and queues the reset mail for an account with an email/password
 * login (retiring the user's earlier reset tokens, see issueTokenWithMail); for an address that has
 * logins of other kinds only, queues their notice instead (no token; LoginKind.recoveryNotice, e.g.
 * the providers it signs in with); for an unknown address, does nothing but record the request.
 * One write transaction either way; the outcome is for the CLI and development mode. The HTTP
 * answer uses acceptPasswordReset instead.
 */
export async function requestPasswordReset(ctx: CoreContext, rawEmail: string, opts: { source?: string } = {}): Promise<PasswordResetRequestResult> {
  const checked = checkResetEmail(rawEmail);
  if (typeof checked !== "string") return checked;
  const result = await issuePasswordReset(ctx, checked, opts.source ?? "api");
  if (result.outcome !== "no_account") notifyOutbox(ctx);
  return result;
}

/**
 * Seed #6 as the HTTP endpoint answers it when the answer carries no token (production): the
 * address is checked, then the answer is "OK" at once and the lookup, the write and the mail run
 * after the answer (ctx.deferred). Known, other-logins-only and unknown addresses thus take the same
 * time to answer: the work that differs between them happens after the response has been written.
 * The job is still one transaction with its mail in the outbox; if the process dies before it
 * commits, nothing happened and the user asks again.
 */
export function acceptPasswordReset(ctx: CoreContext, rawEmail: string, opts: { source?: string } = {}): { status: "OK" } | { status: "FIELD_ERROR"; formFields: FieldError[] } {
  const checked = checkResetEmail(rawEmail);
  if (typeof checked !== "string") return checked;
  ctx.deferred.run("password_reset.request", async () => {
    const result = await issuePasswordReset(ctx, checked, opts.source ?? "api");
    if (result.outcome !== "no_account") notifyOutbox(ctx);
  });
  return { status: "OK" };
}

/** The canonical address, or the FIELD_ERROR the FDI gives for it. */
function checkResetEmail(rawEmail: string): string | { status: "FIELD_ERROR"; formFields: FieldError[] } {
  const email = canonicalEmail(rawEmail);
  if (email === "") return { status: "FIELD_ERROR", formFields: [{ id: "email", error: "Field is not optional" }] };
  if (!isValidEmail(email)) return { status: "FIELD_ERROR", formFields: [{ id: "email", error: "Email is invalid" }] };
  return email;
}

/** The request's one transaction: lookups, then token + mail, notice mail, or only the event. */
async function issuePasswordReset(ctx: CoreContext, email: string, source: string): Promise<PasswordResetRequestResult & { status: "OK" }> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const cred = await credentials.findCredentialByEmail(tx, email);
    if (cred) {
      // The token_created event is the seed's "system event" (its link redacted, see issueTokenWithMail).
      const { token, expiresAt } = await issueTokenWithMail(tx, ctx, { purpose: "password_reset", page: "reset-password", lifetimeMs: ctx.config.passwordResetTokenLifetimeMs, userId: cred.user_id, email, now, source });
      return { status: "OK", outcome: "token_created", token, expiresAt };
    }
    // Account linking (rule 4): the one person who has this address verified may add a password
    // to it through the mail, which proves the address again. The token names the person.
    const person = await findResetPerson(tx, ctx, email);
    if (person !== undefined) {
      const { token, expiresAt } = await issueTokenWithMail(tx, ctx, { purpose: "password_reset", page: "reset-password", lifetimeMs: ctx.config.passwordResetTokenLifetimeMs, userId: person, email, now, source });
      return { status: "OK", outcome: "token_created", token, expiresAt };
    }
    // A stand-in address (a provider gave no email) reaches nobody: nothing to tell, nothing queued.
    if (!isUndeliverableEmail(email)) {
      for (const kind of ctx.logins) {
        const outcome = await kind.recoveryNotice?.(tx, ctx, { email, now, source });
        if (outcome !== undefined) return { status: "OK", outcome, noticeBy: kind.recipeId };
      }
    }
    await insertEvent(tx, { at: now, type: "password_reset.no_account", userId: null, data: { email, source } });
    return { status: "OK", outcome: "no_account" };
  });
}

export type PasswordResetResult =
  | { status: "OK"; userId: string; revokedSessions: number }
  | { status: "RESET_PASSWORD_INVALID_TOKEN_ERROR" }
  | { status: "FIELD_ERROR"; formFields: FieldError[] };

/**
 * Seed #7. Checks in the FDI's order: the new password against the policy (FIELD_ERROR), then the
 * token's shape (400), then the token itself. The hash is computed before the transaction; inside
 * it the token is taken with a conditional DELETE … RETURNING (exactly one of N concurrent
 * submissions gets it), and then, all or nothing: the new hash, every other reset token of the user
 * deleted, every way in of the person ended (sessions, apps' grants: core/ways-in.ts), the address
 * marked verified (the mail proved it), the event, and the "password changed" notice queued.
 */
export async function resetPasswordWithToken(ctx: CoreContext, input: { token: unknown; password: string; source?: string }): Promise<PasswordResetResult> {
  const { password } = input;
  const policy = { minLength: ctx.config.passwordMinLength };
  if (password === "") return { status: "FIELD_ERROR", formFields: [{ id: "password", error: "Field is not optional" }] };
  let why = checkPasswordPolicy(password, policy);
  if (why) return { status: "FIELD_ERROR", formFields: [{ id: "password", error: why }] };
  const token = requireTokenString(input.token, "password reset");
  const invalid = { status: "RESET_PASSWORD_INVALID_TOKEN_ERROR" } as const;

  const tokenHash = hashToken(token);
  const found = await tokens.findToken(ctx.store.db, tokenHash, "password_reset");
  if (!found) return invalid;
  if (found.expires_at <= ctx.clock.now()) {
    await ctx.store.writeTx((tx) => tokens.takeToken(tx, tokenHash, "password_reset"));
    return invalid;
  }
  const cred = await credentials.findCredentialByUserId(ctx.store.db, found.user_id);
  // No password login behind the token: a token to add one to a linked person (see above).
  if (!cred) return addPasswordWithToken(ctx, { tokenHash, password, email: found.email, source: input.source ?? "api" });
  why = await checkNewPassword(ctx.passwordChecks, password, { ...policy, email: cred.email });
  if (why) return { status: "FIELD_ERROR", formFields: [{ id: "password", error: why }] };
  const hash = await hashPassword(password, ctx.config.bcryptCost);

  const now = ctx.clock.now();
  const result = await ctx.store.writeTx(async (tx): Promise<PasswordResetResult> => {
    const taken = await tokens.takeToken(tx, tokenHash, "password_reset");
    if (!taken || taken.expires_at <= now) return invalid;
    const current = await credentials.findCredentialByUserId(tx, taken.user_id);
    if (!current) return invalid;
    await tokens.deleteUserTokens(tx, taken.user_id, "password_reset");
    await credentials.updatePasswordHash(tx, taken.user_id, hash, now);
    // A reset that proves the address for the first time evicts what no one had proven was the owner's.
    const first = taken.email === current.email && (await isFirstProof(tx, taken.user_id, taken.email));
    if (first) await evictUnproven(tx, ctx, { recipeUserId: taken.user_id, email: taken.email, scope: "recovery", source: "password_reset" });
    const ended = countEnded(await endWaysIn(tx, ctx, { userId: taken.user_id, reason: "password_reset", source: input.source ?? "api" }));
    const revokedSessions = ended.sessions ?? 0;
    if (taken.email === current.email && (await users.markEmailVerified(tx, taken.user_id, taken.email, now))) {
      // The mail proved the address: rule 5 of account linking joins the person who has it verified.
      await linkAfterVerification(tx, ctx, taken.user_id, taken.email, "password_reset");
    }
    await insertEvent(tx, { at: now, type: "password_reset.completed", userId: taken.user_id, data: { email: current.email, revokedSessions, endedWaysIn: ended, source: input.source ?? "api" } });
    await queueMail(tx, ctx, { kind: "password_changed", to: current.email, vars: { link: websiteLink(ctx, "reset-password") } });
    return { status: "OK", userId: taken.user_id, revokedSessions };
  });
  if (result.status === "OK") {
    notifyOutbox(ctx);
    // The mail proved the owner: a lock from failed sign-ins (perhaps someone else's) ends here.
    await clearSignInFailures(ctx, cred.email);
  }
  return result;
}

/** The person a reset link may add a password to: the only one with `email`, verified. */
async function findResetPerson(db: Kysely<DB>, ctx: CoreContext, email: string): Promise<string | undefined> {
  if (!ctx.config.accountLinking || isUndeliverableEmail(email)) return undefined;
  const owners = await findPeopleByAddress(db, ctx.logins, email);
  return owners.length === 1 && owners[0].verified ? owners[0].personId : undefined;
}

/**
 * Completes a reset link issued to a person without a password login: in one transaction the token
 * is taken, and, if the person still is the only one with the address verified, a password login
 * is created for them, linked and verified (the mail proved the address), with the "password
 * changed" notice, so the owner learns of it. Their other sessions stay: nothing was replaced.
 */
async function addPasswordWithToken(ctx: CoreContext, p: { tokenHash: string; password: string; email: string; source: string }): Promise<PasswordResetResult> {
  const invalid = { status: "RESET_PASSWORD_INVALID_TOKEN_ERROR" } as const;
  const why = await checkNewPassword(ctx.passwordChecks, p.password, { minLength: ctx.config.passwordMinLength, email: p.email });
  if (why) return { status: "FIELD_ERROR", formFields: [{ id: "password", error: why }] };
  const hash = await hashPassword(p.password, ctx.config.bcryptCost);
  const now = ctx.clock.now();
  const id = createId();
  const result = await ctx.store.writeTx(async (tx): Promise<PasswordResetResult> => {
    const taken = await tokens.takeToken(tx, p.tokenHash, "password_reset");
    if (!taken || taken.expires_at <= now) return invalid;
    const person = await findResetPerson(tx, ctx, taken.email);
    if (person === undefined || person !== (await findPersonId(tx, taken.user_id))) return invalid;
    if (await credentials.findCredentialByEmail(tx, taken.email)) return invalid;
    await tokens.deleteUserTokens(tx, taken.user_id, "password_reset");
    await users.insertUser(tx, { id, email: taken.email, time_joined: now, updated_at: now, primary_user_id: person });
    await credentials.insertCredential(tx, { user_id: id, email: taken.email, password_hash: hash, created_at: now, updated_at: now });
    await users.markEmailVerified(tx, id, taken.email, now);
    await insertEvent(tx, { at: now, type: "user.linked", userId: person, data: { recipeUserId: id, method: "emailpassword", source: p.source } });
    await insertEvent(tx, { at: now, type: "password_reset.completed", userId: person, data: { email: taken.email, addedPasswordLogin: true, source: p.source } });
    await queueMail(tx, ctx, { kind: "password_changed", to: taken.email, vars: { link: websiteLink(ctx, "reset-password") } });
    return { status: "OK", userId: person, revokedSessions: 0 };
  });
  if (result.status === "OK") notifyOutbox(ctx);
  return result;
}
