import type { Kysely } from "kysely";

/**
 * The admin dashboard's own accounts (issue 24), separate from the app's users, this room's part of
 * the migration 011-admins (before the kernel's, store/migrations/index.ts):
 * - `admins`: an address, a password hash (core/passwords scheme), the TOTP secret (sealed with the
 *   server secret when one is set, like user TOTP devices; NULL = no second factor, refused at
 *   sign-in) and the last time step a code was accepted for, so no code is ever accepted twice;
 * - `admin_sessions`: only the SHA-256 of the session token, with idle and absolute limits.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("admins").ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("totp_secret_enc", "text")
    .addColumn("totp_last_step", ms, (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("updated_at", ms, (c) => c.notNull())
    .execute();
  await db.schema.createTable("admin_sessions").ifNotExists()
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("admin_id", "text", (c) => c.notNull().references("admins.id").onDelete("cascade"))
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("last_seen_at", ms, (c) => c.notNull())
    .addColumn("expires_at", ms, (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .execute();
  await db.schema.createIndex("admin_sessions_admin_idx").ifNotExists().on("admin_sessions").column("admin_id").execute();
}
