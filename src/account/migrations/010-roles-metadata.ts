import type { Kysely } from "kysely";

/**
 * The account page's part of the migration 010-roles-metadata (the last of its parts,
 * store/migrations/index.ts): `account_deletions`, a self-service deletion waiting out its grace
 * period, with the hash of the token in the mail that cancels it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("account_deletions").ifNotExists()
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("requested_at", ms, (c) => c.notNull())
    .addColumn("delete_at", ms, (c) => c.notNull())
    .addColumn("cancel_token_hash", "text", (c) => c.notNull().unique())
    .execute();
  await db.schema.createIndex("account_deletions_due_idx").ifNotExists().on("account_deletions").column("delete_at").execute();
}
