import type { Kysely, Selectable } from "kysely";
import type { DB } from "../../store/schema.js";
import type { PasswordlessCodesTable, PasswordlessDevicesTable, PasswordlessUsersTable } from "./tables.js";

export type PasswordlessUserRow = Selectable<PasswordlessUsersTable>;
export type DeviceRow = Selectable<PasswordlessDevicesTable>;
export type CodeRow = Selectable<PasswordlessCodesTable>;

/** The passwordless login method of an address, or undefined. */
export async function findUserByEmail(db: Kysely<DB>, email: string): Promise<PasswordlessUserRow | undefined> {
  return db.selectFrom("passwordless_users").selectAll().where("email", "=", email).executeTakeFirst();
}

export async function findUserByUserId(db: Kysely<DB>, userId: string): Promise<PasswordlessUserRow | undefined> {
  return db.selectFrom("passwordless_users").selectAll().where("user_id", "=", userId).executeTakeFirst();
}

/** Inserts a passwordless login method; throws a unique violation when the address has one. */
export async function insertUser(db: Kysely<DB>, row: PasswordlessUserRow): Promise<void> {
  await db.insertInto("passwordless_users").values(row).execute();
}

export async function insertDevice(db: Kysely<DB>, row: DeviceRow): Promise<void> {
  await db.insertInto("passwordless_devices").values(row).execute();
}

export async function findDevice(db: Kysely<DB>, preAuthSessionId: string): Promise<DeviceRow | undefined> {
  return db.selectFrom("passwordless_devices").selectAll().where("pre_auth_session_id", "=", preAuthSessionId).executeTakeFirst();
}

/** Inserts a code; throws a unique violation when the same link code exists (the same typed code on one device). */
export async function insertCode(db: Kysely<DB>, row: CodeRow): Promise<void> {
  await db.insertInto("passwordless_codes").values(row).execute();
}

/** The code with this link-code hash on this device, or undefined. */
export async function findCode(db: Kysely<DB>, preAuthSessionId: string, linkCodeHash: string): Promise<CodeRow | undefined> {
  return db.selectFrom("passwordless_codes").selectAll()
    .where("link_code_hash", "=", linkCodeHash).where("pre_auth_session_id", "=", preAuthSessionId).executeTakeFirst();
}

/**
 * Deletes one code if it is still unexpired at `now`; true when this call deleted it. The single
 * use rests on this: of concurrent submissions, one delete finds the row and the others none.
 */
export async function takeCode(db: Kysely<DB>, preAuthSessionId: string, linkCodeHash: string, now: number): Promise<boolean> {
  const r = await db.deleteFrom("passwordless_codes")
    .where("link_code_hash", "=", linkCodeHash).where("pre_auth_session_id", "=", preAuthSessionId).where("expires_at", ">", now)
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** Counts one wrong code on a device (atomically); the new count, or undefined when the device is gone. */
export async function countFailedAttempt(db: Kysely<DB>, preAuthSessionId: string): Promise<number | undefined> {
  const r = await db.updateTable("passwordless_devices").set((eb) => ({ failed_attempts: eb("failed_attempts", "+", 1) }))
    .where("pre_auth_session_id", "=", preAuthSessionId).returning("failed_attempts").executeTakeFirst();
  return r === undefined ? undefined : Number(r.failed_attempts);
}

/** Deletes a device and its codes. */
export async function deleteDevice(db: Kysely<DB>, preAuthSessionId: string): Promise<void> {
  await db.deleteFrom("passwordless_codes").where("pre_auth_session_id", "=", preAuthSessionId).execute();
  await db.deleteFrom("passwordless_devices").where("pre_auth_session_id", "=", preAuthSessionId).execute();
}

/** Deletes every device (and code) of an address: a successful sign-in retires them all. */
export async function deleteDevicesByEmail(db: Kysely<DB>, email: string): Promise<void> {
  const devices = db.selectFrom("passwordless_devices").select("pre_auth_session_id").where("email", "=", email);
  await db.deleteFrom("passwordless_codes").where("pre_auth_session_id", "in", devices).execute();
  await db.deleteFrom("passwordless_devices").where("email", "=", email).execute();
}

/** Whether a code with this link-code hash is still stored (the development inbox's "valid / used"). */
export async function codeExists(db: Kysely<DB>, linkCodeHash: string): Promise<boolean> {
  return (await db.selectFrom("passwordless_codes").select("link_code_hash").where("link_code_hash", "=", linkCodeHash).executeTakeFirst()) !== undefined;
}

/** The expiry of a code by the SHA-256 of its link code, or undefined when it is gone (used, retired, purged). */
export async function findCodeExpiryByLinkHash(db: Kysely<DB>, linkCodeHash: string): Promise<number | undefined> {
  const r = await db.selectFrom("passwordless_codes").select("expires_at").where("link_code_hash", "=", linkCodeHash).executeTakeFirst();
  return r === undefined ? undefined : Number(r.expires_at);
}

/** Number of live codes and the newest creation time: changes whenever one is issued, used or purged. */
export async function codesVersion(db: Kysely<DB>): Promise<{ count: number; newest: number }> {
  const r = await db.selectFrom("passwordless_codes").select((eb) => [eb.fn.countAll().as("n"), eb.fn.max("created_at").as("m")]).executeTakeFirst();
  return { count: Number(r?.n ?? 0), newest: Number(r?.m ?? 0) };
}
