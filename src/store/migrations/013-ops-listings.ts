import type { Kysely } from "kysely";

/**
 * The dashboard's outbox, newest first, a page at a time (keyset on (created_at, id)), with or
 * without a state filter: without these indexes every page of a week of mail is a sort of the whole
 * table. (The shipped migration also indexes a room's delivery log: its part is in that room.)
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("mail_outbox_created_idx").ifNotExists().on("mail_outbox").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("mail_outbox_status_created_idx").ifNotExists().on("mail_outbox").columns(["status", "created_at", "id"]).execute();
}
