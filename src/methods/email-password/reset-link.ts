import * as tokens from "../../store/one-time-tokens.js";
import * as users from "../../store/users.js";
import * as credentials from "./store.js";
import { insertEvent } from "../../store/events.js";
import { createSecretToken, hashToken } from "../../util/random.js";
import type { CoreContext } from "../../core/context.js";
import { notifyOutbox, websiteLink } from "../../core/mail-queue.js";
import { issueTokenWithMail, REDACTED_TOKEN } from "../../core/one-time-tokens.js";

export type ResetLinkResult =
  | { status: "OK"; link: string; expiresAt: number; mailed: boolean }
  | { status: "NOT_FOUND" }
  | { status: "NO_PASSWORD_LOGIN" };

/**
 * Issues a password-reset link for a user on behalf of the app's backend (which may deliver it its
 * own way): the same token as POST /user/password/reset/token (256 bits, only its hash stored,
 * the configured lifetime), mailed too when `mail` is set. The raw link is returned to the caller,
 * who is trusted (admin key or shell access); the audit event keeps it redacted.
 */
export async function createPasswordResetLink(ctx: CoreContext, userId: string, opts: { mail: boolean; source?: string }): Promise<ResetLinkResult> {
  const now = ctx.clock.now();
  const source = opts.source ?? "admin-api";
  const result = await ctx.store.writeTx(async (tx): Promise<ResetLinkResult> => {
    if (!(await users.findUserById(tx, userId))) return { status: "NOT_FOUND" };
    const cred = await credentials.findCredentialByUserId(tx, userId);
    if (!cred) return { status: "NO_PASSWORD_LOGIN" };
    if (opts.mail) {
      const { token, expiresAt } = await issueTokenWithMail(tx, ctx, { purpose: "password_reset", page: "reset-password", lifetimeMs: ctx.config.passwordResetTokenLifetimeMs, userId, email: cred.email, now, source });
      return { status: "OK", link: websiteLink(ctx, "reset-password", token), expiresAt, mailed: true };
    }
    const token = createSecretToken();
    const tokenHash = hashToken(token);
    const expiresAt = now + ctx.config.passwordResetTokenLifetimeMs;
    await tokens.insertToken(tx, { token_hash: tokenHash, purpose: "password_reset", user_id: userId, email: cred.email, created_at: now, expires_at: expiresAt });
    await insertEvent(tx, {
      at: now, type: "password_reset.token_created", userId,
      data: { email: cred.email, link: websiteLink(ctx, "reset-password", REDACTED_TOKEN), tokenHashPrefix: tokenHash.slice(0, 12), expiresAt, source, mailed: false },
    });
    return { status: "OK", link: websiteLink(ctx, "reset-password", token), expiresAt, mailed: false };
  });
  if (result.status === "OK" && result.mailed) notifyOutbox(ctx);
  return result;
}
