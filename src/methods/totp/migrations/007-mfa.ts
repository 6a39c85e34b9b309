import type { Kysely } from "kysely";

/**
 * A second factor (issue 21), this room's part of the migration 007-mfa (after the kernel's,
 * store/migrations/index.ts): TOTP devices (secrets encrypted with the server secret), the codes
 * already used (replay protection), the failed-attempt counter behind the lock-out, and recovery
 * codes (stored hashed). Rows go with their user (cascade).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("totp_devices").ifNotExists()
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("secret_enc", "text", (c) => c.notNull())
    .addColumn("period", "integer", (c) => c.notNull())
    .addColumn("skew", "integer", (c) => c.notNull())
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("verified_at", ms)
    .addPrimaryKeyConstraint("totp_devices_pk", ["user_id", "name"])
    .execute();

  await db.schema.createTable("totp_used_codes").ifNotExists()
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("expires_at", ms, (c) => c.notNull())
    .addPrimaryKeyConstraint("totp_used_codes_pk", ["user_id", "code"])
    .execute();

  await db.schema.createTable("totp_attempts").ifNotExists()
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("failures", "integer", (c) => c.notNull())
    .addColumn("last_failure_at", ms, (c) => c.notNull())
    .execute();

  await db.schema.createTable("mfa_recovery_codes").ifNotExists()
    .addColumn("code_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("used_at", ms)
    .execute();
  await db.schema.createIndex("mfa_recovery_codes_user_idx").ifNotExists().on("mfa_recovery_codes").column("user_id").execute();
}
