import type { Kysely } from "kysely";
import { Secret } from "otpauth";
import type { CoreContext } from "../../core/context.js";
import { notifyOutbox, queueMail, websiteLink } from "../../core/mail-queue.js";
import { assertMfaComplete, completeFactor, readMfaState, type MfaClaimValue } from "../../core/mfa.js";
import { insertEvent } from "../../store/events.js";
import type { DB } from "../../store/schema.js";
import { findUserById } from "../../store/users.js";
import { hashToken } from "../../util/random.js";
import { admitCheck, MAX_FAILED_ATTEMPTS, type CodeCheck } from "./codes.js";
import type { MfaSession } from "./devices.js";
import { clearAttempts, consumeRecoveryCode, countUnusedRecoveryCodes, findDevices, replaceRecoveryCodes } from "./store.js";

/**
 * Recovery codes (beyond SuperTokens, which has none): ten codes of 140 random bits each, made
 * when the first TOTP device is verified, shown once, stored as SHA-256 hashes. Each works once in
 * place of an authenticator code; a new set retires the old one. Wrong ones count against the same
 * lock-out as wrong TOTP codes.
 */
export const RECOVERY_CODE_COUNT = 10;
const CODE_LETTERS = 28;

/** 140 random bits as 28 Base32 letters in groups of four ("abcd-efgh-…"), easy to copy by hand. */
function newRecoveryCode(): string {
  return new Secret({ size: 18 }).base32.slice(0, CODE_LETTERS).toLowerCase().match(/.{4}/g)!.join("-");
}

/** What a typed code is compared as: letters and digits only, lower case. */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z2-7]/g, "");
}

/** Replaces the person's recovery codes with a new set (in the caller's transaction); returns the codes. */
export async function createRecoveryCodes(tx: Kysely<DB>, personId: string, now: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await replaceRecoveryCodes(tx, personId, codes.map((c) => hashToken(normaliseRecoveryCode(c))), now);
  return codes;
}

export type RecoveryResult =
  | { status: "OK"; remainingRecoveryCodes: number; claim: MfaClaimValue }
  | { status: "INVALID_RECOVERY_CODE_ERROR"; currentNumberOfFailedAttempts: number; maxNumberOfFailedAttempts: number }
  | (CodeCheck & { status: "LIMIT_REACHED_ERROR" });

/**
 * POST /totp/recovery-code/verify: an unused code of the person completes `totp` in this session,
 * is spent, and the owner gets a mail saying a recovery code was used.
 */
export async function useRecoveryCode(ctx: CoreContext, s: MfaSession, code: string): Promise<RecoveryResult> {
  const now = ctx.clock.now();
  const r = await ctx.store.writeTx(async (tx): Promise<RecoveryResult> => {
    const admitted = await admitCheck(tx, s.personId, now);
    if ("status" in admitted) return admitted;
    const normalised = normaliseRecoveryCode(code);
    if (normalised.length !== CODE_LETTERS || !(await consumeRecoveryCode(tx, s.personId, hashToken(normalised), now))) {
      return { status: "INVALID_RECOVERY_CODE_ERROR", currentNumberOfFailedAttempts: admitted.attempt, maxNumberOfFailedAttempts: MAX_FAILED_ATTEMPTS };
    }
    await clearAttempts(tx, s.personId);
    const remaining = await countUnusedRecoveryCodes(tx, s.personId);
    await insertEvent(tx, { at: now, type: "mfa.recovery_code_used", userId: s.personId, data: { remaining, sessionHandle: s.sessionHandle } });
    const user = await findUserById(tx, s.personId);
    if (user) await queueMail(tx, ctx, { kind: "mfa_recovery_code_used", to: user.email, vars: { link: secondFactorLink(ctx) } });
    return { status: "OK", remainingRecoveryCodes: remaining, claim: await completeFactor(tx, ctx, s, "totp") };
  });
  if (r.status === "OK") notifyOutbox(ctx);
  return r;
}

/**
 * POST /totp/recovery-codes: a new set for a person with TOTP on, in a session that meets its
 * requirements (403 otherwise); the old set stops working in the same transaction.
 */
export async function regenerateRecoveryCodes(ctx: CoreContext, s: MfaSession): Promise<{ status: "OK"; recoveryCodes: string[] } | { status: "TOTP_NOT_ENABLED_ERROR" }> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    assertMfaComplete(await readMfaState(tx, ctx, s.personId, s.sessionHandle));
    if (!(await findDevices(tx, s.personId)).some((d) => d.verified_at !== null)) return { status: "TOTP_NOT_ENABLED_ERROR" as const };
    const recoveryCodes = await createRecoveryCodes(tx, s.personId, now);
    await insertEvent(tx, { at: now, type: "mfa.recovery_codes_regenerated", userId: s.personId });
    return { status: "OK" as const, recoveryCodes };
  });
}

/** Where a person manages their second factor: the hosted page when the pages are on, else the website. */
export function secondFactorLink(ctx: CoreContext): string {
  return websiteLink(ctx, ctx.config.hostedPages ? "second-factor" : "");
}

