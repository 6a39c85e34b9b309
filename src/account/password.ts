import type { CoreContext } from "../core/context.js";
import { notifyOutbox, queueMail, websiteLink } from "../core/mail-queue.js";
import { checkNewPassword, hashPassword } from "../core/passwords.js";
import type { FieldError } from "../core/users.js";
import { insertEvent } from "../store/events.js";
import * as tokens from "../store/one-time-tokens.js";
import { checkCurrentPassword, findPasswordLogin, type AccountSubject } from "./reauth.js";
import { countEnded, endWaysIn } from "../core/ways-in.js";

export type ChangePasswordResult =
  | { status: "OK"; revokedSessions: number }
  | { status: "WRONG_CREDENTIALS_ERROR" }
  | { status: "FIELD_ERROR"; formFields: FieldError[] }
  | { status: "NO_PASSWORD_LOGIN" };

/**
 * Changes the signed-in person's password, proven by the current one. In one transaction: the new
 * hash (only if the stored one is still the hash that was checked: a concurrent change wins),
 * every way in of the person ended (core/ways-in.ts: the other sessions, apps' grants) but this
 * session, which stays signed in, outstanding reset links
 * dropped, `user.password_changed`, and the "password changed" mail to the login's address.
 */
export async function changePassword(ctx: CoreContext, s: AccountSubject, current: string, next: string): Promise<ChangePasswordResult> {
  const cred = await findPasswordLogin(ctx.store.db, ctx.logins, s.personId);
  if (!cred) return { status: "NO_PASSWORD_LOGIN" };
  if (!(await checkCurrentPassword(ctx, cred, current))) return { status: "WRONG_CREDENTIALS_ERROR" };
  const why = await checkNewPassword(ctx.passwordChecks, next, { minLength: ctx.config.passwordMinLength, email: cred.email });
  if (why) return { status: "FIELD_ERROR", formFields: [{ id: "newPassword", error: why }] };
  const hash = await hashPassword(next, ctx.config.bcryptCost);
  const now = ctx.clock.now();
  const result = await ctx.store.writeTx(async (tx): Promise<ChangePasswordResult> => {
    const still = await cred.store.find(tx, cred.recipeUserId);
    if (!still || still.hash !== cred.hash) return { status: "WRONG_CREDENTIALS_ERROR" };
    await cred.store.replaceHash(tx, cred.recipeUserId, cred.hash, hash, now);
    const ended = countEnded(await endWaysIn(tx, ctx, { userId: s.userId, reason: "password_changed", source: "account", keepSession: s.sessionHandle }));
    const revoked = ended.sessions ?? 0;
    const deletedResetTokens = await tokens.deleteUserTokens(tx, cred.recipeUserId, "password_reset");
    await insertEvent(tx, { at: now, type: "user.password_changed", userId: s.personId, data: { source: "account", recipeUserId: cred.recipeUserId, revokedSessions: revoked, endedWaysIn: ended, deletedResetTokens } });
    await queueMail(tx, ctx, { kind: "password_changed", to: cred.email, vars: { link: websiteLink(ctx, "reset-password") } });
    return { status: "OK", revokedSessions: revoked };
  });
  if (result.status === "OK") notifyOutbox(ctx);
  return result;
}
