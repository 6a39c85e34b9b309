import type { Kysely } from "kysely";

/**
 * The protection room (issue 49): `captcha_solutions` remembers each bot-check solution used until
 * its challenge expires, so a replay is refused on every instance; `protection_secrets` holds the
 * proof-of-work HMAC keys, made once and shared by every instance; `breached_sign_ins` marks a
 * password login whose password was found breached at a sign-in, until the password changes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("captcha_solutions").ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("expires_at", ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("captcha_solutions_expiry_idx").ifNotExists().on("captcha_solutions").column("expires_at").execute();
  await db.schema.createTable("protection_secrets").ifNotExists()
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("created_at", ms, (c) => c.notNull())
    .execute();
  await db.schema.createTable("breached_sign_ins").ifNotExists()
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("found_at", ms, (c) => c.notNull())
    .execute();
}
