import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";

/** What the self-service account reads and writes beyond the kernel's tables. No rules here. */

/** The live sessions of these users (a person's login methods), newest first, with where they started. */
export async function listSessionsWithClient(db: Kysely<DB>, userIds: readonly string[], now: number) {
  if (userIds.length === 0) return [];
  return db.selectFrom("sessions").select(["handle", "user_id", "created_at", "expires_at", "last_refreshed_at", "client_ip", "user_agent", "actor"])
    .where("user_id", "in", userIds).where("revoked_at", "is", null).where("expires_at", ">", now)
    .orderBy("created_at", "desc").orderBy("handle").execute();
}

/** Revokes one live session if it belongs to one of these users. */
export async function revokeOwnSession(db: Kysely<DB>, userIds: readonly string[], handle: string, now: number, reason: string): Promise<boolean> {
  if (userIds.length === 0) return false;
  const r = await db.updateTable("sessions").set({ revoked_at: now, revoke_reason: reason })
    .where("handle", "=", handle).where("user_id", "in", userIds).where("revoked_at", "is", null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** When a session started (undefined: no such live session). */
export async function findSessionStart(db: Kysely<DB>, handle: string): Promise<number | undefined> {
  const r = await db.selectFrom("sessions").select("created_at").where("handle", "=", handle).where("revoked_at", "is", null).executeTakeFirst();
  return r ? Number(r.created_at) : undefined;
}

/** Records (or replaces) a pending deletion of a person. */
export async function upsertDeletion(db: Kysely<DB>, row: { user_id: string; requested_at: number; delete_at: number; cancel_token_hash: string }): Promise<void> {
  await db.insertInto("account_deletions").values(row)
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ requested_at: row.requested_at, delete_at: row.delete_at, cancel_token_hash: row.cancel_token_hash })).execute();
}

/** Removes a pending deletion by its cancel token's hash; returns the person, if one was pending. */
export async function takeDeletion(db: Kysely<DB>, tokenHash: string): Promise<string | undefined> {
  return (await db.deleteFrom("account_deletions").where("cancel_token_hash", "=", tokenHash).returning("user_id").executeTakeFirst())?.user_id;
}

/** The people whose grace period has passed, oldest first. */
export async function listDueDeletions(db: Kysely<DB>, now: number, limit: number): Promise<string[]> {
  return (await db.selectFrom("account_deletions").select("user_id").where("delete_at", "<=", now).orderBy("delete_at").limit(limit).execute()).map((r) => r.user_id);
}

/** A person's pending deletion, if any. */
export async function findDeletion(db: Kysely<DB>, userId: string): Promise<{ delete_at: number } | undefined> {
  const r = await db.selectFrom("account_deletions").select("delete_at").where("user_id", "=", userId).executeTakeFirst();
  return r ? { delete_at: Number(r.delete_at) } : undefined;
}

/** Sets a login's address on its users row (the login's own row is its method's: PasswordLogins.setEmail). */
export async function setUserEmail(db: Kysely<DB>, userId: string, email: string, now: number): Promise<void> {
  await db.updateTable("users").set({ email, updated_at: now }).where("id", "=", userId).execute();
}
