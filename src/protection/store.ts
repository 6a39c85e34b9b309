import type { Kysely } from "kysely";
import { isUniqueViolation, type Store } from "../store/database.js";
import { relaxedWrite } from "../store/limits.js";
import type { DB } from "../store/schema.js";
import "./tables.js";

/**
 * Records a solution as used; false when it already was (a replay, on this instance or another:
 * the primary key decides, atomically on both databases). Written like a rate-limit counter,
 * without waiting for the disk flush (store/limits.ts relaxedWrite): a power loss could forget the
 * last few, and a challenge lives minutes; an fsync per sign-up would cost more than the check.
 */
export async function useSolution(store: Store, id: string, expiresAt: number): Promise<boolean> {
  try {
    await relaxedWrite(store, (db) => db.insertInto("captcha_solutions").values({ id, expires_at: expiresAt }).execute());
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/** Used solutions whose challenge expired at `now` (no request can present them any more), at most `limit`. */
export async function listExpiredSolutions(db: Kysely<DB>, now: number, limit: number): Promise<string[]> {
  return (await db.selectFrom("captcha_solutions").select("id").where("expires_at", "<=", now).limit(limit).execute()).map((r) => r.id);
}

/** Deletes these used solutions. */
export async function deleteSolutions(db: Kysely<DB>, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return Number((await db.deleteFrom("captcha_solutions").where("id", "in", [...ids]).executeTakeFirst()).numDeletedRows);
}

/**
 * The room's secret of that name: made by the first instance that asks (a concurrent first ask
 * loses quietly on the primary key and reads the winner's), the same for every instance after.
 */
export async function findOrMakeSecret(store: Store, name: string, make: () => string, now: number): Promise<string> {
  const found = await store.db.selectFrom("protection_secrets").select("value").where("name", "=", name).executeTakeFirst();
  if (found) return found.value;
  await store.writeTx((tx) => tx.insertInto("protection_secrets").values({ name, value: make(), created_at: now }).onConflict((oc) => oc.column("name").doNothing()).execute());
  const row = await store.db.selectFrom("protection_secrets").select("value").where("name", "=", name).executeTakeFirstOrThrow();
  return row.value;
}

/** Marks a password login as signed in with a breached password (kept until the password changes). */
export async function markBreached(db: Kysely<DB>, userId: string, now: number): Promise<void> {
  await db.insertInto("breached_sign_ins").values({ user_id: userId, found_at: now }).onConflict((oc) => oc.column("user_id").doUpdateSet({ found_at: now })).execute();
}

/** Forgets the mark of these login users (their password changed, or the last sign-in's was not breached). */
export async function clearBreached(db: Kysely<DB>, userIds: readonly string[]): Promise<void> {
  if (userIds.length) await db.deleteFrom("breached_sign_ins").where("user_id", "in", [...userIds]).execute();
}

/** Whether this login user carries the mark. */
export async function isBreached(db: Kysely<DB>, userId: string): Promise<boolean> {
  return (await db.selectFrom("breached_sign_ins").select("user_id").where("user_id", "=", userId).executeTakeFirst()) !== undefined;
}
