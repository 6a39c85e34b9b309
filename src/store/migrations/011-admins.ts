import type { Kysely } from "kysely";

/**
 * The kernel's part of the migration 011-admins, after the dashboard's accounts (its part is in
 * that room): `events.admin_id`, the admin behind an event (filled by store/events.ts), indexed so
 * an admin's actions read back fast. Nullable: most events are an app user's.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("events").addColumn("admin_id", "text").execute();
  await db.schema.createIndex("events_admin_idx").ifNotExists().on("events").columns(["admin_id", "id"]).execute();
}
