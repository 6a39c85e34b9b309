import type { Kysely } from "kysely";

/**
 * The SuperTokens CDI's part of a session (migration 021): what the SDK keeps in the core beside the
 * kernel's session row, which it extends (same handle, gone with it): the tenant, the app's access
 * token payload (`userDataInJWT`, signed into every token the session gets), its session data
 * (`userDataInDatabase`) and the anti-CSRF token when the SDK asked for one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable("cdi_sessions").ifNotExists()
    .addColumn("handle", "text", (c) => c.primaryKey().references("sessions.handle").onDelete("cascade"))
    .addColumn("tenant_id", "text", (c) => c.notNull())
    .addColumn("jwt_payload", "text", (c) => c.notNull())
    .addColumn("session_data", "text", (c) => c.notNull())
    .addColumn("anti_csrf_token", "text")
    .execute();
}
