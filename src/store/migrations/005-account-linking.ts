import type { Kysely } from "kysely";

/**
 * Account linking: a users row is one login method (a "recipe user"); `primary_user_id` names the
 * person it belongs to, NULL meaning "its own person". Existing rows keep NULL, so every current
 * user stays a person of their own with the same id, and nothing is rewritten. The index finds a
 * person's methods.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("primary_user_id", "text").execute();
  await db.schema.createIndex("users_primary_user_id_idx").ifNotExists().on("users").column("primary_user_id").execute();
}
