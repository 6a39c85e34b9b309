import type { Kysely } from "kysely";

/**
 * The bans room (issue 49): `person_bans` holds a person shut out by the operator, for good
 * (`until` null) or until a time (the ban lifts by itself then; the purge deletes the row later).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("person_bans").ifNotExists()
    .addColumn("person_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("reason", "text")
    .addColumn("until", ms)
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("person_bans_until_idx").ifNotExists().on("person_bans").column("until").execute();
}
