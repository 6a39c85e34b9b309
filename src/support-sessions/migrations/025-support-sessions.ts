import type { Kysely } from "kysely";

/**
 * The support-sessions room (issue 49): `support_sessions` holds each session an admin opened as a
 * person, with the hash of its one-time hand-over link (used once, within minutes) and when and
 * why it ended. The session itself is a row of the kernel's `sessions` (its `actor`, `ends_at`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("support_sessions").ifNotExists()
    .addColumn("session_handle", "text", (c) => c.primaryKey())
    .addColumn("person_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("admin_id", "text", (c) => c.notNull())
    .addColumn("admin_email", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("started_at", ms, (c) => c.notNull())
    .addColumn("ends_at", ms, (c) => c.notNull())
    .addColumn("link_hash", "text")
    .addColumn("link_expires_at", ms, (c) => c.notNull())
    .addColumn("ended_at", ms)
    .addColumn("end_reason", "text")
    .execute();
  await db.schema.createIndex("support_sessions_person_idx").ifNotExists().on("support_sessions").column("person_id").execute();
  await db.schema.createIndex("support_sessions_link_idx").ifNotExists().on("support_sessions").column("link_hash").execute();
}
