import { PostgresAdapter, type Kysely } from "kysely";
import type { DB } from "../store/schema.js";

/** The app's JSON object per person, as stored text. No rules here (see metadata.ts). */
export async function findMetadata(db: Kysely<DB>, userId: string): Promise<string | undefined> {
  return (await db.selectFrom("user_metadata").select("data").where("user_id", "=", userId).executeTakeFirst())?.data;
}

/** Writes (insert or replace) a person's metadata; `data` undefined deletes the row. */
export async function writeMetadata(db: Kysely<DB>, userId: string, data: string | undefined, now: number): Promise<void> {
  if (data === undefined) {
    await db.deleteFrom("user_metadata").where("user_id", "=", userId).execute();
    return;
  }
  await db.insertInto("user_metadata").values({ user_id: userId, data, updated_at: now })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ data, updated_at: now })).execute();
}

/** On PostgreSQL, holds the person's users row until commit, so two merges run one after the other. */
export async function lockPerson(tx: Kysely<DB>, personId: string): Promise<void> {
  if (!(tx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await tx.selectFrom("users").select("id").where("id", "=", personId).forUpdate().execute();
}
