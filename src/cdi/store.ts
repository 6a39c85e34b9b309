import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import "./tables.js";

/** A CDI session: the kernel's session row with the CDI's part (absent for a session the API opened). */
export interface CdiSessionRow {
  handle: string; user_id: string; primary_user_id: string | null; created_at: number; expires_at: number; revoked_at: number | null;
  tenant_id: string | null; jwt_payload: string | null; session_data: string | null; anti_csrf_token: string | null;
}

const sessionQuery = (db: Kysely<DB>) => db.selectFrom("sessions as s").innerJoin("users as u", "u.id", "s.user_id")
  .leftJoin("cdi_sessions as c", "c.handle", "s.handle")
  .select(["s.handle", "s.user_id", "u.primary_user_id", "s.created_at", "s.expires_at", "s.revoked_at", "c.tenant_id", "c.jwt_payload", "c.session_data", "c.anti_csrf_token"]);

export async function findCdiSession(db: Kysely<DB>, handle: string): Promise<CdiSessionRow | undefined> {
  const r = await sessionQuery(db).where("s.handle", "=", handle).executeTakeFirst();
  return r ? { ...r, created_at: Number(r.created_at), expires_at: Number(r.expires_at), revoked_at: r.revoked_at === null ? null : Number(r.revoked_at) } : undefined;
}

export async function insertCdiSession(db: Kysely<DB>, row: { handle: string; tenant_id: string; jwt_payload: string; session_data: string; anti_csrf_token: string | null }): Promise<void> {
  await db.insertInto("cdi_sessions").values(row).execute();
}

/** Writes the CDI's part of a session (inserted for a session the API opened). */
export async function updateCdiSession(db: Kysely<DB>, handle: string, set: { jwt_payload?: string; session_data?: string }): Promise<void> {
  const r = await db.updateTable("cdi_sessions").set(set).where("handle", "=", handle).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) {
    await db.insertInto("cdi_sessions").values({ handle, tenant_id: "public", jwt_payload: set.jwt_payload ?? "{}", session_data: set.session_data ?? "{}", anti_csrf_token: null }).execute();
  }
}

/** A refresh token by its hash, with its parent's state (the promotion rule, cdi/sessions.ts). */
export async function findTokenWithParent(db: Kysely<DB>, hash: string) {
  return db.selectFrom("refresh_tokens as r").leftJoin("refresh_tokens as p", "p.token_hash", "r.parent_hash")
    .select(["r.token_hash", "r.session_handle", "r.parent_hash", "r.expires_at", "r.rotated_at", "p.rotated_at as parent_rotated_at", "p.token_hash as parent_found"])
    .where("r.token_hash", "=", hash).executeTakeFirst();
}

/**
 * Promotes a child token to the session's current one: its parent and its siblings stop working
 * (a later use of either is theft). False when the parent had already been replaced.
 */
export async function promoteToken(db: Kysely<DB>, hash: string, parentHash: string, now: number): Promise<boolean> {
  const r = await db.updateTable("refresh_tokens").set({ rotated_at: now }).where("token_hash", "=", parentHash).where("rotated_at", "is", null).executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return false;
  await db.updateTable("refresh_tokens").set({ rotated_at: now }).where("parent_hash", "=", parentHash).where("token_hash", "!=", hash).where("rotated_at", "is", null).execute();
  return true;
}

/** The live sessions' handles of these users. */
export async function liveHandlesOf(db: Kysely<DB>, userIds: readonly string[], now: number): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db.selectFrom("sessions").select("handle").where("user_id", "in", userIds).where("revoked_at", "is", null).where("expires_at", ">", now).orderBy("created_at").execute();
  return rows.map((r) => r.handle);
}

/** The ids of a person's logins (the person and every recipe user linked to them). */
export async function loginsOf(db: Kysely<DB>, userId: string): Promise<string[]> {
  const row = await db.selectFrom("users").select(["id", "primary_user_id"]).where("id", "=", userId).executeTakeFirst();
  if (!row) return [];
  const person = row.primary_user_id ?? row.id;
  const rows = await db.selectFrom("users").select("id").where((eb) => eb.or([eb("id", "=", person), eb("primary_user_id", "=", person)])).execute();
  return rows.map((r) => r.id);
}
