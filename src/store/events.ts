import type { Kysely } from "kysely";
import type { DB } from "./schema.js";

/** Appends one event to the audit log (inside the caller's transaction). */
export async function insertEvent(db: Kysely<DB>, e: { at: number; type: string; userId: string | null; data?: unknown }): Promise<void> {
  await db.insertInto("events").values({ at: e.at, type: e.type, user_id: e.userId, data: e.data === undefined ? null : JSON.stringify(e.data) }).execute();
}

export async function listEvents(db: Kysely<DB>, opts: { type?: string; userId?: string; limit?: number } = {}) {
  let q = db.selectFrom("events").selectAll().orderBy("id");
  if (opts.type) q = q.where("type", "=", opts.type);
  if (opts.userId) q = q.where("user_id", "=", opts.userId);
  return q.limit(opts.limit ?? 1000).execute();
}

/** The newest events, newest first. */
export async function listLatestEvents(db: Kysely<DB>, limit: number) {
  return db.selectFrom("events").selectAll().orderBy("id", "desc").limit(limit).execute();
}
