import type { Kysely } from "kysely";
import type { DB } from "./schema.js";
import type { SessionRow } from "./sessions.js";

/** The sessions of these users (a person's login methods) that are neither revoked nor expired, newest first. */
export async function listLiveSessions(db: Kysely<DB>, userIds: string[], now: number): Promise<SessionRow[]> {
  if (userIds.length === 0) return [];
  return db.selectFrom("sessions").selectAll().where("user_id", "in", userIds)
    .where("revoked_at", "is", null).where("expires_at", ">", now)
    .orderBy("created_at", "desc").orderBy("handle").execute();
}

/** One session by handle, whatever its state. */
export async function findSession(db: Kysely<DB>, handle: string): Promise<SessionRow | undefined> {
  return db.selectFrom("sessions").selectAll().where("handle", "=", handle).executeTakeFirst();
}
