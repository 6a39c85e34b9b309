import type { Kysely, Selectable } from "kysely";
import type { DB } from "../../store/schema.js";
import type { TotpDevicesTable } from "./tables.js";

export type DeviceRow = Selectable<TotpDevicesTable>;

const toDevice = (r: DeviceRow): DeviceRow => ({ ...r, period: Number(r.period), skew: Number(r.skew), created_at: Number(r.created_at), verified_at: r.verified_at === null ? null : Number(r.verified_at) });

/** A person's TOTP devices, oldest first. */
export async function findDevices(db: Kysely<DB>, userId: string): Promise<DeviceRow[]> {
  const rows = await db.selectFrom("totp_devices").selectAll().where("user_id", "=", userId).orderBy("created_at").orderBy("name").execute();
  return rows.map(toDevice);
}

export async function insertDevice(db: Kysely<DB>, row: DeviceRow): Promise<void> {
  await db.insertInto("totp_devices").values(row).execute();
}

/** Deletes one device; true when it existed. */
export async function deleteDevice(db: Kysely<DB>, userId: string, name: string): Promise<boolean> {
  const r = await db.deleteFrom("totp_devices").where("user_id", "=", userId).where("name", "=", name).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Marks a device verified (once); true when this call did it. */
export async function markDeviceVerified(db: Kysely<DB>, userId: string, name: string, now: number): Promise<boolean> {
  const r = await db.updateTable("totp_devices").set({ verified_at: now })
    .where("user_id", "=", userId).where("name", "=", name).where("verified_at", "is", null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Records an accepted code until `expiresAt`. False when the same code is already recorded and
 * still live: a replay (the conditional upsert decides it in one statement, so two concurrent
 * submissions of one code cannot both win).
 */
export async function recordUsedCode(db: Kysely<DB>, userId: string, code: string, now: number, expiresAt: number): Promise<boolean> {
  const r = await db.insertInto("totp_used_codes").values({ user_id: userId, code, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(["user_id", "code"]).doUpdateSet({ expires_at: expiresAt }).where("totp_used_codes.expires_at", "<=", now))
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Consecutive wrong codes and when the last one came, or undefined. */
export async function findAttempts(db: Kysely<DB>, userId: string): Promise<{ failures: number; lastFailureAt: number } | undefined> {
  const r = await db.selectFrom("totp_attempts").select(["failures", "last_failure_at"]).where("user_id", "=", userId).executeTakeFirst();
  return r ? { failures: Number(r.failures), lastFailureAt: Number(r.last_failure_at) } : undefined;
}

/**
 * Admits one code check in a single conditional statement: it is counted as a failure before the
 * code is looked at (a right code clears the count after), unless `max` failures are already on
 * record and the last came less than `cooldownMs` ago. Returns the count including this check, or
 * undefined when locked out. One statement, so on PostgreSQL concurrent checks queue on the row's
 * lock instead of all reading "4 failures" and all going ahead.
 */
export async function admitAttempt(db: Kysely<DB>, userId: string, now: number, max: number, cooldownMs: number): Promise<number | undefined> {
  const r = await db.insertInto("totp_attempts").values({ user_id: userId, failures: 1, last_failure_at: now })
    .onConflict((oc) => oc.column("user_id")
      .doUpdateSet((eb) => ({ failures: eb("totp_attempts.failures", "+", 1), last_failure_at: now }))
      .where((eb) => eb.or([eb("totp_attempts.failures", "<", max), eb("totp_attempts.last_failure_at", "<=", now - cooldownMs)])))
    .returning("failures").executeTakeFirst();
  return r ? Number(r.failures) : undefined;
}

export async function clearAttempts(db: Kysely<DB>, userId: string): Promise<void> {
  await db.deleteFrom("totp_attempts").where("user_id", "=", userId).execute();
}

/** Replaces a person's recovery codes with new ones (hashes only). */
export async function replaceRecoveryCodes(db: Kysely<DB>, userId: string, hashes: string[], now: number): Promise<void> {
  await db.deleteFrom("mfa_recovery_codes").where("user_id", "=", userId).execute();
  if (hashes.length) await db.insertInto("mfa_recovery_codes").values(hashes.map((h) => ({ code_hash: h, user_id: userId, created_at: now, used_at: null }))).execute();
}

/** Uses a recovery code once: true when this call marked an unused code of this person used. */
export async function consumeRecoveryCode(db: Kysely<DB>, userId: string, hash: string, now: number): Promise<boolean> {
  const r = await db.updateTable("mfa_recovery_codes").set({ used_at: now })
    .where("code_hash", "=", hash).where("user_id", "=", userId).where("used_at", "is", null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** How many unused recovery codes a person has left. */
export async function countUnusedRecoveryCodes(db: Kysely<DB>, userId: string): Promise<number> {
  const r = await db.selectFrom("mfa_recovery_codes").select((eb) => eb.fn.countAll<number>().as("n")).where("user_id", "=", userId).where("used_at", "is", null).executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Removes every TOTP trace of a person (operator reset, last device removed). Returns the devices removed. */
export async function deleteSecondFactorData(db: Kysely<DB>, userId: string): Promise<number> {
  const d = await db.deleteFrom("totp_devices").where("user_id", "=", userId).executeTakeFirst();
  await db.deleteFrom("mfa_recovery_codes").where("user_id", "=", userId).execute();
  await db.deleteFrom("totp_attempts").where("user_id", "=", userId).execute();
  await db.deleteFrom("totp_used_codes").where("user_id", "=", userId).execute();
  return Number(d.numDeletedRows);
}

/** Renames a device, its secret sealed anew for the new name (seal.ts binds a secret to its row). */
export async function renameDevice(db: Kysely<DB>, userId: string, from: string, to: string, secretEnc: string): Promise<void> {
  await db.updateTable("totp_devices").set({ name: to, secret_enc: secretEnc }).where("user_id", "=", userId).where("name", "=", from).execute();
}
