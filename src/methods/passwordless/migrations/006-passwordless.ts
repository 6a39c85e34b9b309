import type { Kysely } from "kysely";

/**
 * Passwordless sign-in (magic links and one-time codes by email). `passwordless_users`: one
 * passwordless login method per address. `passwordless_devices`: one per started flow, keyed by
 * its preAuthSessionId (the SHA-256 of the deviceId the browser holds), with the salt that turns a
 * typed code into its link code and the count of wrong codes. `passwordless_codes`: each mailed
 * code, kept only as the SHA-256 of its link code, so the database never holds a usable secret.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("passwordless_users").ifNotExists()
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("created_at", ms, (c) => c.notNull())
    .execute();
  await db.schema.createTable("passwordless_devices").ifNotExists()
    .addColumn("pre_auth_session_id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("link_code_salt", "text", (c) => c.notNull())
    .addColumn("failed_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("passwordless_devices_email_idx").ifNotExists().on("passwordless_devices").column("email").execute();
  await db.schema.createTable("passwordless_codes").ifNotExists()
    .addColumn("link_code_hash", "text", (c) => c.primaryKey())
    .addColumn("pre_auth_session_id", "text", (c) => c.notNull().references("passwordless_devices.pre_auth_session_id").onDelete("cascade"))
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("expires_at", ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("passwordless_codes_device_idx").ifNotExists().on("passwordless_codes").column("pre_auth_session_id").execute();
  await db.schema.createIndex("passwordless_codes_expiry_idx").ifNotExists().on("passwordless_codes").column("expires_at").execute();
}
