import type { Kysely } from "kysely";
import type { DB } from "../../store/schema.js";
import { admitAttempt, clearAttempts, findAttempts, recordUsedCode, type DeviceRow } from "./store.js";
import { matchesCode, openTotpSecret } from "./secrets.js";

/** N `recipe/totp` / core defaults: 5 wrong codes, then 15 minutes after the last one. */
export const MAX_FAILED_ATTEMPTS = 5;
export const COOLDOWN_MS = 15 * 60_000;

export type CodeCheck =
  | { status: "OK" }
  | { status: "INVALID_TOTP_ERROR"; currentNumberOfFailedAttempts: number; maxNumberOfFailedAttempts: number }
  | { status: "LIMIT_REACHED_ERROR"; retryAfterMs: number };

/**
 * Admits one check of a code or recovery code (they share the lock): the attempt number, counted
 * as a failure until the code proves right (store.ts admitAttempt, one atomic statement), or
 * LIMIT_REACHED_ERROR while the person is locked out.
 */
export async function admitCheck(tx: Kysely<DB>, userId: string, now: number): Promise<{ attempt: number } | (CodeCheck & { status: "LIMIT_REACHED_ERROR" })> {
  const attempt = await admitAttempt(tx, userId, now, MAX_FAILED_ATTEMPTS, COOLDOWN_MS);
  if (attempt !== undefined) return { attempt };
  const a = await findAttempts(tx, userId);
  return { status: "LIMIT_REACHED_ERROR", retryAfterMs: a ? a.lastFailureAt + COOLDOWN_MS - now : COOLDOWN_MS };
}

/**
 * Checks a submitted code against `devices` inside the caller's transaction: refused while locked
 * out; a code that matches no device (±skew steps) or that was already accepted within its
 * lifetime (replay) stays counted as a failure; a good one is recorded as used and clears the failures.
 */
export async function checkCode(tx: Kysely<DB>, serverSecret: string | undefined, userId: string, devices: DeviceRow[], code: string, now: number): Promise<CodeCheck> {
  const admitted = await admitCheck(tx, userId, now);
  if ("status" in admitted) return admitted;
  const device = /^\d{6}$/.test(code) ? devices.find((d) => matchesCode(openTotpSecret(d, serverSecret), d, code, now)) : undefined;
  // A code stays acceptable for period × (2·skew + 1): that long it must not be accepted twice.
  const fresh = device !== undefined && await recordUsedCode(tx, userId, code, now, now + device.period * 1000 * (2 * device.skew + 1));
  if (!fresh) return { status: "INVALID_TOTP_ERROR", currentNumberOfFailedAttempts: admitted.attempt, maxNumberOfFailedAttempts: MAX_FAILED_ATTEMPTS };
  await clearAttempts(tx, userId);
  return { status: "OK" };
}
