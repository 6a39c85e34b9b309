import type { Kysely } from "kysely";
import type { DB } from "./schema.js";
import type { SessionRow } from "./sessions.js";

/** A user's sessions that are neither revoked nor expired, newest first. */
export async function listLiveSessions(db: Kysely<DB>, userId: string, now: number): Promise<SessionRow[]> {
  return db.selectFrom("sessions").selectAll().where("user_id", "=", userId)
    .where("revoked_at", "is", null).where("expires_at", ">", now)
    .orderBy("created_at", "desc").orderBy("handle").execute();
}

/** One session by handle, whatever its state. */
export async function findSession(db: Kysely<DB>, handle: string): Promise<SessionRow | undefined> {
  return db.selectFrom("sessions").selectAll().where("handle", "=", handle).executeTakeFirst();
}
