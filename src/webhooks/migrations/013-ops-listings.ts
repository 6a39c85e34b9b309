import type { Kysely } from "kysely";

/**
 * The dashboard's delivery log, newest first, a page at a time (keyset on (created_at, id)):
 * without this index every page of a month of deliveries is a sort of the whole table. Part of the
 * shipped migration 013-ops-listings (store/migrations/index.ts), after the outbox's indexes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("webhook_deliveries_created_idx").ifNotExists().on("webhook_deliveries").columns(["created_at", "id"]).execute();
}
