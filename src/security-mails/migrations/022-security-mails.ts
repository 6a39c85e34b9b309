import type { Kysely } from "kysely";

/**
 * The security-mails room (issue 49): `known_devices` remembers each device and network a person
 * signed in from (a hash of the browser's User-Agent and the address's network), so a sign-in from
 * one never seen mails them. Part of migration 022.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("known_devices").ifNotExists()
    .addColumn("person_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("device", "text", (c) => c.notNull())
    .addColumn("first_seen", ms, (c) => c.notNull())
    .addColumn("last_seen", ms, (c) => c.notNull())
    .addColumn("mailed_at", ms)
    .addPrimaryKeyConstraint("known_devices_pk", ["person_id", "device"])
    .execute();
}
