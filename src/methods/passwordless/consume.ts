import { recordLoginAdded, type LinkingSession } from "../../core/login-policy.js";
import type { Kysely } from "kysely";
import type { FactorId } from "../../core/claims.js";
import type { CoreContext } from "../../core/context.js";
import { canonicalEmail, isValidEmail } from "../../core/emails.js";
import { badInput } from "../../core/errors.js";
import { decideSignInUp, joinPerson } from "../../core/linking.js";
import { getUser, type UserView } from "../../core/users.js";
import { isUniqueViolation } from "../../store/database.js";
import { insertEvent } from "../../store/events.js";
import { lockAddress } from "../../store/people.js";
import type { DB } from "../../store/schema.js";
import { setPersonLocale } from "../../store/person-locales.js";
import { insertUser, markEmailVerified } from "../../store/users.js";
import { createId } from "../../util/random.js";
import { requireFlow } from "./codes.js";
import { PASSWORDLESS_REASONS } from "./refusals.js";
import { deviceMatches, hashLinkCode, linkCodeOf } from "./secrets.js";
import * as store from "./store.js";

/** Wrong codes a device takes; the one that reaches it ends the flow (SuperTokens' default). */
export const MAX_CODE_INPUT_ATTEMPTS = 5;

export type ConsumeInput =
  | { preAuthSessionId: string; linkCode: string; session?: LinkingSession; locale?: string }
  | { preAuthSessionId: string; deviceId: string; userInputCode: string; session?: LinkingSession; locale?: string };

export type ConsumeResult =
  | { status: "OK"; user: UserView; recipeUserId: string; createdNewRecipeUser: boolean; factor: FactorId }
  | { status: "INCORRECT_USER_INPUT_CODE_ERROR" | "EXPIRED_USER_INPUT_CODE_ERROR"; failedCodeInputAttemptCount: number; maximumCodeInputAttempts: number }
  | { status: "RESTART_FLOW_ERROR" }
  | { status: "SIGN_IN_UP_NOT_ALLOWED"; reason: string };

/** Thrown inside the transaction to undo it: a refused sign-in leaves the code usable and nothing changed. */
class Refused extends Error {
  constructor(readonly reason: string) { super(reason); }
}

/**
 * POST /signinup/code/consume: checks a link code or a typed code and signs the address in (or
 * up), all in one transaction. A code is single use because taking it is one conditional delete:
 * of concurrent submissions exactly one deletes the row. Success retires every flow of the
 * address; a wrong or expired typed code counts against the device, and the attempt that reaches
 * MAX_CODE_INPUT_ATTEMPTS deletes it (RESTART_FLOW_ERROR). A wrong link code changes nothing (it
 * cannot be guessed: 256 bits).
 */
export async function consumeCode(ctx: CoreContext, input: ConsumeInput): Promise<ConsumeResult> {
  requireFlow(ctx);
  const typed = "deviceId" in input;
  if (typed && !deviceMatches(input.deviceId, input.preAuthSessionId)) throw badInput("preAuthSessionId and deviceId doesn't match");
  const factor: FactorId = typed ? "otp-email" : "link-email";
  try {
    const outcome = await ctx.store.writeTx(async (tx): Promise<ConsumeResult | { status: "SIGNED_IN"; userId: string; created: boolean }> => {
      const now = ctx.clock.now();
      const device = await store.findDevice(tx, input.preAuthSessionId);
      if (!device) return { status: "RESTART_FLOW_ERROR" };
      const linkCode = typed ? linkCodeOf(input.deviceId, device.link_code_salt, input.userInputCode) : input.linkCode;
      const hash = hashLinkCode(linkCode);
      if (await store.takeCode(tx, device.pre_auth_session_id, hash, now)) {
        await store.deleteDevicesByEmail(tx, device.email);
        const r = await signInUpInTx(tx, ctx, { email: device.email, session: input.session, factor, locale: input.locale });
        return { status: "SIGNED_IN", ...r };
      }
      if (!typed) return { status: "RESTART_FLOW_ERROR" };
      const expired = (await store.findCode(tx, device.pre_auth_session_id, hash)) !== undefined;
      const failed = await store.countFailedAttempt(tx, device.pre_auth_session_id);
      if (failed === undefined) return { status: "RESTART_FLOW_ERROR" };
      if (failed >= MAX_CODE_INPUT_ATTEMPTS) {
        await store.deleteDevice(tx, device.pre_auth_session_id);
        return { status: "RESTART_FLOW_ERROR" };
      }
      return {
        status: expired ? "EXPIRED_USER_INPUT_CODE_ERROR" : "INCORRECT_USER_INPUT_CODE_ERROR",
        failedCodeInputAttemptCount: failed, maximumCodeInputAttempts: MAX_CODE_INPUT_ATTEMPTS,
      };
    });
    if (outcome.status !== "SIGNED_IN") return outcome;
    const user = await getUser(ctx, outcome.userId);
    if (!user) return { status: "RESTART_FLOW_ERROR" }; // deleted in the instant after sign-in
    return { status: "OK", user, recipeUserId: outcome.userId, createdNewRecipeUser: outcome.created, factor };
  } catch (err) {
    if (err instanceof Refused) return { status: "SIGN_IN_UP_NOT_ALLOWED", reason: err.reason };
    throw err;
  }
}

/**
 * Signs in the passwordless user of an address, or creates one, inside the consuming transaction.
 * A used code proves the address, so the method counts as verified for account linking (like a
 * provider's email_verified): it joins the person who has the address verified, and is refused
 * (ERR_CODE_002/003) where a method with the address unverified belongs to someone else.
 */
async function signInUpInTx(tx: Kysely<DB>, ctx: CoreContext, p: { email: string; session?: LinkingSession; factor?: FactorId; source?: string; locale?: string }): Promise<{ userId: string; created: boolean }> {
  const now = ctx.clock.now();
  // Two flows of one address used at once decide one after the other (PostgreSQL; SQLite serialises writes).
  await lockAddress(tx, p.email);
  const existing = await store.findUserByEmail(tx, p.email);
  const d = await decideSignInUp(tx, ctx, { session: p.session, email: p.email, verified: true, recipeUserId: existing?.user_id }, PASSWORDLESS_REASONS);
  if (d.kind === "refused") throw new Refused(d.reason);
  const data = { method: "passwordless", ...(p.factor ? { factor: p.factor } : {}), ...(p.source ? { source: p.source } : {}) };
  if (existing) {
    await markEmailVerified(tx, existing.user_id, p.email, now);
    await insertEvent(tx, { at: now, type: "user.signed_in", userId: existing.user_id, data });
    if (d.kind === "join") await joinPerson(tx, ctx, existing.user_id, d.personId, "passwordless");
    return { userId: existing.user_id, created: false };
  }
  const id = createId();
  const personId = d.kind === "join" ? d.personId : null;
  await insertUser(tx, { id, email: p.email, time_joined: now, updated_at: now, primary_user_id: personId });
  await store.insertUser(tx, { user_id: id, email: p.email, created_at: now });
  await markEmailVerified(tx, id, p.email, now);
  // A new person's locale (the page's, or the browser's), which their mail is written in; one joined to a person keeps theirs.
  if (p.locale && personId === null) await setPersonLocale(tx, id, p.locale, now);
  await insertEvent(tx, { at: now, type: "user.signed_up", userId: personId ?? id, data: { ...data, recipeUserId: id } });
  if (personId !== null) await recordLoginAdded(tx, ctx, { personId: personId, recipeUserId: id, source: "passwordless" });
  return { userId: id, created: true };
}

/** A refusal says why in `message` (the linking refusal's reason for SIGN_UP_NOT_ALLOWED). */
export type CreateUserResult = { status: "OK"; user: UserView } | { status: "EMAIL_EXISTS" | "INVALID_EMAIL" | "SIGN_UP_NOT_ALLOWED"; message: string };

/**
 * Creates a user whose only login method is passwordless (admin API, CLI): they sign in with a
 * mailed code. The address counts as verified, as after a sign-in, and account linking decides as
 * for one (joins the person who has the address verified, refused beside an unverified one).
 */
export async function createPasswordlessUser(ctx: CoreContext, p: { email: string; source: string }): Promise<CreateUserResult> {
  const email = canonicalEmail(p.email);
  if (!isValidEmail(email)) return { status: "INVALID_EMAIL", message: "email must be a valid address" };
  const exists = { status: "EMAIL_EXISTS", message: "a passwordless user with this address exists already" } as const;
  try {
    const r = await ctx.store.writeTx(async (tx) => {
      await lockAddress(tx, email);
      if (await store.findUserByEmail(tx, email)) return undefined;
      return signInUpInTx(tx, ctx, { email, source: p.source });
    });
    if (!r) return exists;
    const user = await getUser(ctx, r.userId);
    if (!user) throw new Error("passwordless user vanished after creation");
    return { status: "OK", user };
  } catch (err) {
    if (err instanceof Refused) return { status: "SIGN_UP_NOT_ALLOWED", message: err.reason };
    if (isUniqueViolation(err)) return exists;
    throw err;
  }
}

/**
 * In the caller's transaction (SCIM provisioning, src/sso/): the passwordless user of an address
 * whose organization vouches for it, made when new. The address counts as verified, and account
 * linking decides as for a sign-in (joins the person who has it verified); a refusal says why.
 */
export async function provisionPasswordlessUser(tx: Kysely<DB>, ctx: CoreContext, p: { email: string; source: string }): Promise<{ userId: string; created: boolean } | { refused: string }> {
  try {
    return await signInUpInTx(tx, ctx, p);
  } catch (err) {
    if (err instanceof Refused) return { refused: err.reason };
    throw err;
  }
}
