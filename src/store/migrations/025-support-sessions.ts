import type { Kysely } from "kysely";

/**
 * Sessions someone else acts in (issue 49, support sessions): `actor` says who acts and why (JSON
 * `{sub, email, reason}`, the access token's RFC 8693 `act` claim), `ends_at` the fixed time the
 * session ends whatever its refreshes. Both NULL for a person's own sessions.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("actor", "text").execute();
  await db.schema.alterTable("sessions").addColumn("ends_at", "bigint").execute();
}
