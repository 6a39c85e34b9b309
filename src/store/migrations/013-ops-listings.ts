import type { Kysely } from "kysely";

/**
 * The dashboard's outbox and delivery log, newest first, a page at a time (keyset on (created_at,
 * id)), with or without a state filter: without these indexes every page of a week of mail (or a
 * month of deliveries) is a sort of the whole table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("mail_outbox_created_idx").ifNotExists().on("mail_outbox").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("mail_outbox_status_created_idx").ifNotExists().on("mail_outbox").columns(["status", "created_at", "id"]).execute();
  await db.schema.createIndex("webhook_deliveries_created_idx").ifNotExists().on("webhook_deliveries").columns(["created_at", "id"]).execute();
}
