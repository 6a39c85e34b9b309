import type { Kysely } from "kysely";

/**
 * The audit room (issue 49): `audit_log` holds every security event with who did it (`actor`), whom
 * it concerns (`person_id`, kept after the person is deleted), from where (IP, User-Agent) and when,
 * kept for --audit-retention. Part of migration 022 with the bans room's table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("audit_log").ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("at", ms, (c) => c.notNull())
    .addColumn("actor", "text", (c) => c.notNull())
    .addColumn("person_id", "text")
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .addColumn("details", "text")
    .execute();
  await db.schema.createIndex("audit_log_at_idx").ifNotExists().on("audit_log").columns(["at", "id"]).execute();
  await db.schema.createIndex("audit_log_person_idx").ifNotExists().on("audit_log").columns(["person_id", "at"]).execute();
}
