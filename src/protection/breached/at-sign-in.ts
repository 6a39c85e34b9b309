import type { ClaimProvider } from "../../core/claims.js";
import type { CoreContext } from "../../core/context.js";
import type { EventHook } from "../../store/events.js";
import { clearBreached, isBreached, markBreached } from "../store.js";

/**
 * --breached-passwords-at-sign-in: a password sign-in whose password is found breached still signs
 * in (refusing it would lock the person out of the way to change it), marked: the login user gets a
 * row, and every access token of its sessions the claim `pwd_breached: true`, which the app (and the
 * hosted pages) read to ask for a new password. The mark goes with the next sign-in that is clean and
 * with every password change or reset (the event hook, in the change's own transaction).
 */
export const BREACHED_CLAIM = "pwd_breached";

export function createSignInCheck(isBreachedPassword: (password: string) => Promise<boolean>) {
  return async (ctx: CoreContext, recipeUserId: string, password: string): Promise<void> => {
    if (!ctx.config.breachedPasswordsAtSignIn) return;
    const breached = await isBreachedPassword(password);
    await ctx.store.writeTx((tx) => (breached ? markBreached(tx, recipeUserId, ctx.clock.now()) : clearBreached(tx, [recipeUserId])));
    if (breached) ctx.logger.info("signed in with a breached password", { userId: recipeUserId });
  };
}

/** The claim, for sessions of a marked login user (absent otherwise). */
export const breachedClaim: ClaimProvider = {
  keys: [BREACHED_CLAIM],
  compute: async (tx, subject) => ((await isBreached(tx, subject.userId)) ? { [BREACHED_CLAIM]: true } : {}),
};

const PASSWORD_SET = new Set(["user.password_changed", "password_reset.completed"]);

/** A changed or reset password clears the mark of the login (the event names it as the user or as data.recipeUserId). */
export const clearOnPasswordChange: EventHook = async (tx, e) => {
  if (!PASSWORD_SET.has(e.type)) return;
  const data = (e.data ?? {}) as { recipeUserId?: unknown };
  const ids = [e.userId, typeof data.recipeUserId === "string" ? data.recipeUserId : null].filter((v): v is string => typeof v === "string");
  await clearBreached(tx, ids);
};
