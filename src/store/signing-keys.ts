import { sql, type Kysely, type Selectable } from "kysely";
import type { Store } from "./database.js";
import type { DB, SigningKeysTable } from "./schema.js";

export type SigningKeyRow = Selectable<SigningKeysTable>;

/**
 * Every signing key, newest first (current and retired). The current key is the first one not
 * retired; "newest" is a total order (created_at, then kid), so instances that raced to create a
 * first key agree on which one signs.
 */
export async function listSigningKeys(db: Kysely<DB>): Promise<SigningKeyRow[]> {
  return db.selectFrom("signing_keys").selectAll().orderBy("created_at", "desc").orderBy("kid", "desc").execute();
}

/**
 * Inserts the first key only if no active key exists, atomically: one statement on SQLite (it holds
 * the write lock), and under a transaction-scoped advisory lock on PostgreSQL (READ COMMITTED alone
 * would let two instances both see "none"). Returns true when this row was inserted.
 */
export async function insertFirstSigningKey(store: Store, row: SigningKeyRow): Promise<boolean> {
  const insert = (db: Kysely<DB>) => sql`insert into signing_keys (kid, alg, public_jwk, private_jwk, created_at, retired_at)
    select ${row.kid}, ${row.alg}, ${row.public_jwk}, ${row.private_jwk}, cast(${row.created_at} as bigint), cast(null as bigint)
    where not exists (select 1 from signing_keys where retired_at is null)`.execute(db);
  const r = store.dialect === "postgres"
    ? await store.writeTx(async (tx) => { await sql`select pg_advisory_xact_lock(7311001)`.execute(tx); return insert(tx); })
    : await insert(store.db);
  return Number(r.numAffectedRows ?? 0) === 1;
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
