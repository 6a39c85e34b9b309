import type { Kysely } from "kysely";
import type { DB } from "./schema.js";

/** Revokes every live session of a user (their refresh tokens stop working at once). */
export async function revokeUserSessions(db: Kysely<DB>, userId: string, now: number, reason: string): Promise<number> {
  const r = await db.updateTable("sessions").set({ revoked_at: now, revoke_reason: reason })
    .where("user_id", "=", userId).where("revoked_at", "is", null).executeTakeFirst();
  return Number(r.numUpdatedRows);
}
