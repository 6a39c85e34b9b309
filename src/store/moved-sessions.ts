import type { Insertable, Kysely } from "kysely";
import type { DB, MovedRefreshKeysTable, MovedRefreshTokensTable } from "./schema.js";

/** Reads and writes of sessions moved in from another server (migration 017). No rules here. */

/** A moved refresh token with its session's expiry. */
export async function findMovedRefreshToken(db: Kysely<DB>, hash2: string): Promise<{ session_handle: string; key_id: string | null; expires_at: number } | undefined> {
  const r = await db.selectFrom("moved_refresh_tokens as m").innerJoin("sessions as s", "s.handle", "m.session_handle")
    .select(["m.session_handle", "m.key_id", "s.expires_at"]).where("m.token_hash2", "=", hash2).executeTakeFirst();
  return r && { ...r, expires_at: Number(r.expires_at) };
}

/** Deletes a moved token; false when another request took it first. */
export async function deleteMovedRefreshToken(db: Kysely<DB>, hash2: string): Promise<boolean> {
  const r = await db.deleteFrom("moved_refresh_tokens").where("token_hash2", "=", hash2).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function listMovedRefreshKeys(db: Kysely<DB>): Promise<Array<{ id: string; secret_enc: string }>> {
  return db.selectFrom("moved_refresh_keys").select(["id", "secret_enc"]).orderBy("created_at", "desc").execute();
}

/** Whether any moved session is left (the refresh path looks further only then). */
export async function hasMovedRefreshTokens(db: Kysely<DB>): Promise<boolean> {
  return (await db.selectFrom("moved_refresh_tokens").select("token_hash2").limit(1).executeTakeFirst()) !== undefined;
}

export async function insertMovedRefreshKey(db: Kysely<DB>, row: Insertable<MovedRefreshKeysTable>): Promise<boolean> {
  const r = await db.insertInto("moved_refresh_keys").values(row).onConflict((oc) => oc.column("id").doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function insertMovedRefreshTokens(db: Kysely<DB>, rows: Insertable<MovedRefreshTokensTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    await db.insertInto("moved_refresh_tokens").values(rows.slice(i, i + 1000)).onConflict((oc) => oc.column("token_hash2").doNothing()).execute();
  }
}
