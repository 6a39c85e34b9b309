import { canonicalEmail } from "../core/emails.js";
import { AuthError } from "../core/errors.js";
import { admitSignIn, settleSignIn } from "../core/limits.js";
import { notePasswordSignIn } from "../core/passwords.js";
import { recordFailedSignIn } from "../core/sign-in-failures.js";
import { getUser, toUserJson } from "../core/users.js";
import { accountsOf } from "../core/account-operations.js";
import { insertEvent } from "../store/events.js";
import * as tokens from "../store/one-time-tokens.js";
import { createSecretToken, hashToken } from "../util/random.js";
import { CdiError, optStr, str, type CdiRoute } from "./http.js";

/**
 * The email-password recipe (supertokens-cdi-notes §1.1) over authsvc's own: the same logins the
 * API, the hosted pages and the dashboard see. The SDK sends the mails itself, so the reset token
 * is only made and answered here; authsvc's password policy (length, breached passwords) still
 * holds, and a password it refuses is a 400 naming why (docs/supertokens-core.md).
 */
const WRONG = { status: "WRONG_CREDENTIALS_ERROR" };

export const emailPasswordRoutes: CdiRoute[] = [
  {
    method: "POST", path: "/recipe/signup", tenant: true,
    handler: async (c) => {
      const r = await accountsOf(c.ctx, "password").signUp(c.ctx, { email: str(c, "email"), password: str(c, "password"), source: "cdi" });
      if (r.status === "OK") return { status: "OK", user: toUserJson(r.user), recipeUserId: r.recipeUserId };
      if (r.status === "SIGN_UP_NOT_ALLOWED" || r.status === "ADDRESS_EXISTS") return { status: "EMAIL_ALREADY_EXISTS_ERROR" };
      throw new CdiError(400, `Refused by authsvc: ${r.formFields.map((f) => `${f.id}: ${f.error}`).join("; ")}`);
    },
  },
  {
    method: "POST", path: "/recipe/signin", tenant: true,
    // The address's failure budget holds here too (security-bar 22): a locked address is refused
    // even with the right password, in the only refusal the SDK knows (it reads any other as this one).
    handler: async (c) => {
      const { ctx } = c;
      const email = str(c, "email"), password = str(c, "password");
      let ticket;
      try {
        ticket = await admitSignIn(ctx, email);
      } catch (err) {
        if (err instanceof AuthError && err.code === "RATE_LIMITED") return WRONG;
        throw err;
      }
      const r = await accountsOf(ctx, "password").signIn(ctx, { email, password });
      await settleSignIn(ctx, ticket, r.status !== "WRONG_CREDENTIALS_ERROR");
      if (r.status !== "OK") {
        if (r.status === "WRONG_CREDENTIALS_ERROR") recordFailedSignIn(ctx, "emailpassword");
        return WRONG;
      }
      await notePasswordSignIn(ctx, r.recipeUserId, password);
      return { status: "OK", user: toUserJson(r.user), recipeUserId: r.recipeUserId };
    },
  },
  {
    method: "POST", path: "/recipe/user/password/reset/token", tenant: true,
    handler: async (c) => {
      const userId = str(c, "userId");
      const email = canonicalEmail(optStr(c, "email") ?? "");
      const { ctx } = c;
      const cred = await accountsOf(ctx, "password").findLogin(ctx.store.db, userId);
      if (!cred) return { status: "UNKNOWN_USER_ID_ERROR" };
      const token = createSecretToken();
      const tokenHash = hashToken(token);
      const now = ctx.clock.now();
      const expiresAt = now + ctx.config.passwordResetTokenLifetimeMs;
      await ctx.store.writeTx(async (tx) => {
        await tokens.insertToken(tx, { token_hash: tokenHash, purpose: "password_reset", user_id: userId, email: email || cred.email, created_at: now, expires_at: expiresAt });
        await insertEvent(tx, { at: now, type: "password_reset.token_created", userId, data: { email: email || cred.email, tokenHashPrefix: tokenHash.slice(0, 12), expiresAt, source: "cdi" } });
      });
      return { status: "OK", token };
    },
  },
  {
    method: "POST", path: "/recipe/user/password/reset/token/consume", tenant: true,
    handler: async (c) => {
      const token = str(c, "token");
      const { ctx } = c;
      const now = ctx.clock.now();
      const taken = await ctx.store.writeTx(async (tx) => {
        const t = await tokens.takeToken(tx, hashToken(token), "password_reset");
        if (!t || t.expires_at <= now) return undefined;
        await tokens.deleteUserTokens(tx, t.user_id, "password_reset");
        return t;
      });
      return taken ? { status: "OK", userId: taken.user_id, email: taken.email } : { status: "RESET_PASSWORD_INVALID_TOKEN_ERROR" };
    },
  },
];

/**
 * `PUT /recipe/user` for rid emailpassword: a new password is authsvc's password change (every way
 * into the account ends, as after any password change); an address change is refused in the
 * protocol's own words (the account page proves the new address first).
 */
export async function updateEmailPasswordUser(c: Parameters<CdiRoute["handler"]>[0]) {
  const userId = str(c, "recipeUserId");
  const email = optStr(c, "email");
  const password = optStr(c, "password");
  const passwords = accountsOf(c.ctx, "password");
  const cred = await passwords.findLogin(c.ctx.store.db, userId);
  if (!cred || !(await getUser(c.ctx, userId))) return { status: "UNKNOWN_USER_ID_ERROR" };
  if (email !== undefined && canonicalEmail(email) !== cred.email) {
    return { status: "EMAIL_CHANGE_NOT_ALLOWED_ERROR", reason: "authsvc changes an address only once the new one is proven (its account page); not through the CDI" };
  }
  if (password !== undefined) {
    const r = await passwords.setPassword(c.ctx, userId, password, "cdi");
    if (r.status === "FIELD_ERROR") return { status: "PASSWORD_POLICY_VIOLATED_ERROR", failureReason: r.formFields[0].error };
    if (r.status === "NO_PASSWORD_LOGIN") return { status: "UNKNOWN_USER_ID_ERROR" };
  }
  return { status: "OK" };
}
