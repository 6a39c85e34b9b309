import type { Kysely } from "kysely";

/**
 * Keyset pagination of users (admin API list, `users export`): walking (time_joined, id) needs an
 * index on exactly that pair, or every page of a large table is a sort.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("users_time_joined_id_idx").ifNotExists().on("users").columns(["time_joined", "id"]).execute();
}
