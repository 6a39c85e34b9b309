import type { Kysely } from "kysely";

/**
 * The kernel's part of the migration 010-roles-metadata, after the roles' and the metadata's and
 * before the account page's (store/migrations/index.ts): `sessions.client_ip` /
 * `sessions.user_agent`, where a session was started, shown on "My account". The two columns are
 * added once, like 005's (the migration runs once, in its transaction, under the migrator's lock).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("client_ip", "text").execute();
  await db.schema.alterTable("sessions").addColumn("user_agent", "text").execute();
}
