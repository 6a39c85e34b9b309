import type { Kysely } from "kysely";
import type { DB } from "../../store/schema.js";
import { clearAttempts, countFailure, findAttempts, recordUsedCode, type DeviceRow } from "./store.js";
import { matchesCode, openTotpSecret } from "./secrets.js";

/** N `recipe/totp` / core defaults: 5 wrong codes, then 15 minutes after the last one. */
export const MAX_FAILED_ATTEMPTS = 5;
export const COOLDOWN_MS = 15 * 60_000;

export type CodeCheck =
  | { status: "OK" }
  | { status: "INVALID_TOTP_ERROR"; currentNumberOfFailedAttempts: number; maxNumberOfFailedAttempts: number }
  | { status: "LIMIT_REACHED_ERROR"; retryAfterMs: number };

/** LIMIT_REACHED_ERROR while the person is locked out, else undefined. Codes and recovery codes share the lock. */
export async function checkLockout(tx: Kysely<DB>, userId: string, now: number): Promise<CodeCheck | undefined> {
  const a = await findAttempts(tx, userId);
  if (a && a.failures >= MAX_FAILED_ATTEMPTS && now < a.lastFailureAt + COOLDOWN_MS) return { status: "LIMIT_REACHED_ERROR", retryAfterMs: a.lastFailureAt + COOLDOWN_MS - now };
  return undefined;
}

/** Counts a wrong code and says so in the SDK's shape. */
export async function failAttempt(tx: Kysely<DB>, userId: string, now: number): Promise<CodeCheck & { status: "INVALID_TOTP_ERROR" }> {
  const n = await countFailure(tx, userId, now);
  return { status: "INVALID_TOTP_ERROR", currentNumberOfFailedAttempts: n, maxNumberOfFailedAttempts: MAX_FAILED_ATTEMPTS };
}

/**
 * Checks a submitted code against `devices` inside the caller's transaction: refused while locked
 * out; a code that matches no device (±skew steps) or that was already accepted within its
 * lifetime (replay) counts as a failure; a good one is recorded as used and clears the failures.
 */
export async function checkCode(tx: Kysely<DB>, serverSecret: string | undefined, userId: string, devices: DeviceRow[], code: string, now: number): Promise<CodeCheck> {
  const locked = await checkLockout(tx, userId, now);
  if (locked) return locked;
  const device = /^\d{6}$/.test(code) ? devices.find((d) => matchesCode(openTotpSecret(d, serverSecret), d, code, now)) : undefined;
  // A code stays acceptable for period × (2·skew + 1): that long it must not be accepted twice.
  const fresh = device !== undefined && await recordUsedCode(tx, userId, code, now, now + device.period * 1000 * (2 * device.skew + 1));
  if (!fresh) return failAttempt(tx, userId, now);
  await clearAttempts(tx, userId);
  return { status: "OK" };
}
