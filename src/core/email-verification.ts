import * as users from "../store/users.js";
import * as tokens from "../store/one-time-tokens.js";
import { insertEvent } from "../store/events.js";
import { hashToken } from "../util/random.js";
import type { CoreContext } from "./context.js";
import { AuthError } from "./errors.js";
import { evictUnproven, isFirstProof } from "./first-proof.js";
import { linkAfterVerification } from "./linking.js";
import { notifyOutbox } from "./mail-queue.js";
import { issueTokenWithMail, requireTokenString } from "./one-time-tokens.js";

export type EmailVerificationRequestResult =
  | { status: "OK"; email: string; token: string; expiresAt: number }
  | { status: "EMAIL_ALREADY_VERIFIED_ERROR" };

/**
 * Seed #4, for the signed-in user `userId`: issues a verification token for the user's current
 * address (valid config.emailVerificationTokenLifetimeMs, default 1 day), records the
 * `email_verification.token_created` event and queues the mail, in one transaction, in which the
 * user's earlier verification tokens are retired (only the newest link works). The raw token is
 * returned for development mode only; the handler must not send it in production mode. A user
 * that no longer exists → AuthError UNAUTHORISED.
 */
export async function requestEmailVerification(ctx: CoreContext, userId: string, opts: { source?: string } = {}): Promise<EmailVerificationRequestResult> {
  const now = ctx.clock.now();
  const result = await ctx.store.writeTx(async (tx): Promise<EmailVerificationRequestResult> => {
    const user = await users.findUserById(tx, userId);
    if (!user) throw new AuthError("UNAUTHORISED", "unauthorised", { clearTokens: true });
    if (await users.isEmailVerified(tx, userId, user.email)) return { status: "EMAIL_ALREADY_VERIFIED_ERROR" };
    const { token, expiresAt } = await issueTokenWithMail(tx, ctx, { purpose: "email_verification", page: "verify-email", lifetimeMs: ctx.config.emailVerificationTokenLifetimeMs, userId, email: user.email, now, source: opts.source ?? "api" });
    return { status: "OK", email: user.email, token, expiresAt };
  });
  if (result.status === "OK") notifyOutbox(ctx);
  return result;
}

export type EmailVerifyResult =
  | { status: "OK"; userId: string; email: string }
  | { status: "EMAIL_VERIFICATION_INVALID_TOKEN_ERROR" };

/**
 * Seed #5. `token` is the raw body value: missing → 400 "Please provide the email verification
 * token", not a string → 400 "The email verification token must be a string". When
 * config.emailVerificationRequiresSession is on (the default) a `sessionUserId` is required
 * (AuthError UNAUTHORISED otherwise), and a token of another user is refused without being used up
 * (a signed-in attacker cannot burn the victim's link). Unknown, expired or already used → INVALID.
 * On success, in one transaction: the token taken (conditional DELETE, single use under
 * concurrency), every other verification token of that user for that address deleted, the address
 * marked verified, event `user.email_verified`. The caller re-issues the session's `st-ev` claim
 * when `sessionUserId === result.userId`.
 */
export async function verifyEmailWithToken(ctx: CoreContext, token: unknown, opts: { sessionUserId?: string; source?: string } = {}): Promise<EmailVerifyResult> {
  const raw = requireTokenString(token, "email verification");
  if (ctx.config.emailVerificationRequiresSession && opts.sessionUserId === undefined) throw new AuthError("UNAUTHORISED", "unauthorised");
  const tokenHash = hashToken(raw);
  const invalid = { status: "EMAIL_VERIFICATION_INVALID_TOKEN_ERROR" } as const;
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx): Promise<EmailVerifyResult> => {
    const found = await tokens.findToken(tx, tokenHash, "email_verification");
    if (!found) return invalid;
    if (opts.sessionUserId !== undefined && found.user_id !== opts.sessionUserId) return invalid;
    const taken = await tokens.takeToken(tx, tokenHash, "email_verification");
    if (!taken) return invalid;
    // An expired token is purged, but newer links for the same address stay usable.
    if (taken.expires_at <= now) return invalid;
    await tokens.deleteUserTokens(tx, taken.user_id, "email_verification", taken.email);
    // The first proof of the address: other logins no one had proven were the owner's leave.
    if (await isFirstProof(tx, taken.user_id, taken.email)) await evictUnproven(tx, ctx, { recipeUserId: taken.user_id, email: taken.email, scope: "verification", source: "email_verification" });
    const changed = await users.markEmailVerified(tx, taken.user_id, taken.email, now);
    if (changed) {
      await insertEvent(tx, { at: now, type: "user.email_verified", userId: taken.user_id, data: { email: taken.email, source: opts.source ?? "token" } });
      // Rule 5 of account linking: a method that just proved its address joins the person who has it verified.
      await linkAfterVerification(tx, ctx, taken.user_id, taken.email, "email_verification");
    }
    return { status: "OK", userId: taken.user_id, email: taken.email };
  });
}
