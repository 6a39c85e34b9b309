import type { Kysely } from "kysely";

/**
 * Per-user metadata, this room's part of the migration 010-roles-metadata (after the roles' part,
 * store/migrations/index.ts): `user_metadata`, one JSON object per person for the app, which goes
 * with its user.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("user_metadata").ifNotExists()
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("updated_at", ms, (c) => c.notNull())
    .execute();
}
