import type { Kysely, Selectable } from "kysely";
import type { DB, SigningKeysTable } from "./schema.js";

export type SigningKeyRow = Selectable<SigningKeysTable>;

/** Every signing key, newest first (current and retired). */
export async function listSigningKeys(db: Kysely<DB>): Promise<SigningKeyRow[]> {
  return db.selectFrom("signing_keys").selectAll().orderBy("created_at", "desc").orderBy("kid", "desc").execute();
}

/**
 * The current key: the newest one not retired. "Newest" is a total order (created_at, then kid), so
 * two instances that raced to create a first key agree on which one signs.
 */
export async function findCurrentSigningKey(db: Kysely<DB>): Promise<SigningKeyRow | undefined> {
  return db.selectFrom("signing_keys").selectAll().where("retired_at", "is", null)
    .orderBy("created_at", "desc").orderBy("kid", "desc").limit(1).executeTakeFirst();
}

/** Inserts a key; throws a unique violation when the kid exists (same millisecond). */
export async function insertSigningKey(db: Kysely<DB>, row: SigningKeyRow): Promise<void> {
  await db.insertInto("signing_keys").values(row).execute();
}

/** Retires every non-retired key except `keepKid`. Returns how many were retired. */
export async function retireSigningKeysExcept(db: Kysely<DB>, keepKid: string, now: number): Promise<number> {
  const r = await db.updateTable("signing_keys").set({ retired_at: now })
    .where("retired_at", "is", null).where("kid", "!=", keepKid).executeTakeFirst();
  return Number(r.numUpdatedRows);
}
