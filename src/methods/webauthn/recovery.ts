import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { isUniqueViolation } from "../../store/database.js";
import { insertEvent } from "../../store/events.js";
import * as tokens from "../../store/one-time-tokens.js";
import * as users from "../../store/users.js";
import { hashToken } from "../../util/random.js";
import type { CoreContext } from "../../core/context.js";
import { canonicalEmail, isValidEmail } from "../../core/emails.js";
import { evictUnproven, isFirstProof } from "../../core/first-proof.js";
import { linkAfterVerification } from "../../core/linking.js";
import { endWaysIn } from "../../core/ways-in.js";
import { notifyOutbox } from "../../core/mail-queue.js";
import { issueTokenWithMail } from "../../core/one-time-tokens.js";
import { getUser, type UserView } from "../../core/users.js";
import { insertCredentialRow } from "./accounts.js";
import { createOptionsForAccount } from "./credentials.js";
import { takeOptions, verifyRegistration, type OptionsProblem, type VerifyProblem } from "./relying-party.js";
import * as store from "./store.js";

/**
 * "Lost my passkey" (POST /user/webauthn/reset/token). The answer is always OK and is given before
 * the lookup: the lookup, the token and the mail run after it (ctx.deferred), so a known and an
 * unknown address answer alike, in the same time. The token is the kernel's one-time token
 * (256 bits, stored hashed, the newest one only, valid webauthnRecoveryTokenLifetimeMs).
 */
export function acceptRecoveryRequest(ctx: CoreContext, rawEmail: string, source = "api"): { status: "OK" } {
  const email = canonicalEmail(rawEmail);
  if (!isValidEmail(email)) return { status: "OK" };
  ctx.deferred.run("webauthn_recovery.request", async () => {
    const mailed = await issueRecoveryToken(ctx, email, source);
    if (mailed) notifyOutbox(ctx);
  });
  return { status: "OK" };
}

/** The request's one transaction: token and mail for a passkey login, else only the event. Returns whether mail was queued. */
export async function issueRecoveryToken(ctx: CoreContext, email: string, source: string): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const account = await store.findAccountByEmail(tx, email);
    if (!account) {
      await insertEvent(tx, { at: now, type: "webauthn_recovery.no_account", userId: null, data: { email, source } });
      return false;
    }
    await issueTokenWithMail(tx, ctx, { purpose: "webauthn_recovery", page: "webauthn/recover", lifetimeMs: ctx.config.webauthnRecoveryTokenLifetimeMs, userId: account.user_id, email, now, source });
    return true;
  });
}

/** Registration options for a recovery link (POST /webauthn/options/register with recoverAccountToken); the token stays valid. */
export async function createRecoveryOptions(ctx: CoreContext, token: string) {
  const row = await tokens.findToken(ctx.store.db, hashToken(token), "webauthn_recovery");
  const account = row && Number(row.expires_at) > ctx.clock.now() ? await store.findAccountByUserId(ctx.store.db, row.user_id) : undefined;
  if (!account) return { status: "RECOVER_ACCOUNT_TOKEN_INVALID_ERROR" as const };
  return createOptionsForAccount(ctx, account);
}

export type RecoverResult =
  | { status: "OK"; user: UserView; email: string }
  | { status: "RECOVER_ACCOUNT_TOKEN_INVALID_ERROR" | OptionsProblem | "INVALID_CREDENTIALS_ERROR" }
  | VerifyProblem;

/**
 * POST /user/webauthn/reset: registers a new passkey with a recovery link. One transaction takes
 * the token (a conditional delete: of N concurrent submissions one wins), stores the passkey and,
 * since the link came by mail, marks the address verified (and links by the verified-address
 * rule). Earlier passkeys stay, unless this is the first proof of the address (core/first-proof.ts:
 * then only the new one does); the user removes a lost one on the account page. Every session of
 * the person ends, and every other way in (core/ways-in.ts: whoever had the lost passkey is out);
 * the user signs in with the new passkey.
 */
export async function recoverWithPasskey(ctx: CoreContext, input: { token: string; optionsId: string; credential: RegistrationResponseJSON }): Promise<RecoverResult> {
  const invalidToken = { status: "RECOVER_ACCOUNT_TOKEN_INVALID_ERROR" } as const;
  const options = await takeOptions(ctx, input.optionsId, "registration");
  if (typeof options === "string") return { status: options };
  const tokenHash = hashToken(input.token);
  const peek = await tokens.findToken(ctx.store.db, tokenHash, "webauthn_recovery");
  if (!peek || Number(peek.expires_at) <= ctx.clock.now()) return invalidToken;
  if (options.email !== peek.email || options.user_handle !== peek.user_id) return { status: "INVALID_OPTIONS_ERROR" };
  const verified = await verifyRegistration(ctx, options, input.credential);
  if ("status" in verified) return verified;
  const now = ctx.clock.now();
  try {
    const userId = await ctx.store.writeTx(async (tx) => {
      const row = await tokens.takeToken(tx, tokenHash, "webauthn_recovery");
      if (!row || Number(row.expires_at) <= now) return undefined;
      await insertCredentialRow(tx, row.user_id, ctx.config.webauthnRpId, verified, now);
      // The first proof of the address evicts what no one had proven was the owner's (the passkeys
      // and logins of whoever signed up with it first); every recovery signs the person out.
      if (await isFirstProof(tx, row.user_id, row.email)) await evictUnproven(tx, ctx, { recipeUserId: row.user_id, email: row.email, keepKey: verified.id, scope: "recovery", source: "webauthn_recovery" });
      await endWaysIn(tx, ctx, { userId: row.user_id, reason: "webauthn_recovery", source: "webauthn_recovery" });
      if (await users.markEmailVerified(tx, row.user_id, row.email, now)) await linkAfterVerification(tx, ctx, row.user_id, row.email, "webauthn_recovery");
      await insertEvent(tx, { at: now, type: "webauthn.account_recovered", userId: row.user_id, data: { credentialId: verified.id, email: row.email } });
      return row.user_id;
    });
    if (userId === undefined) return invalidToken;
    const user = await getUser(ctx, userId);
    return user ? { status: "OK", user, email: peek.email } : invalidToken;
  } catch (err) {
    if (isUniqueViolation(err)) return { status: "INVALID_CREDENTIALS_ERROR" };
    throw err;
  }
}
