import { sql, type Kysely, type RawBuilder, type Selectable } from "kysely";
import type { Store } from "./database.js";
import type { DB, RateLimitsTable } from "./schema.js";

export type CounterRow = Selectable<RateLimitsTable>;

/** One bucket's counter for one key, as an upsert needs it. */
export interface CounterHit {
  bucket: string;
  key: string;
  now: number;
  /** Length of the window (fixed windows) or how long the row is remembered after the last hit. */
  windowMs: number;
}

const col = (name: keyof RateLimitsTable) => sql.ref(`rate_limits.${name}`);

/**
 * Runs one counter write without waiting for the disk flush: on SQLite with synchronous=NORMAL for
 * that statement (WAL: it survives a crash of the process, only a power loss may forget the last
 * counts), on PostgreSQL with synchronous_commit off for that transaction (the same trade). A
 * counter is not worth an fsync on every sign-in (measured: 6 ms each on a busy disk, the whole
 * budget of a bcrypt check); everything else keeps the store's full durability, which is restored
 * before the connection is released.
 */
const syncLevels = new WeakMap<Store, number>(); // the store's own synchronous level, read once

export async function relaxedWrite<T>(store: Store, fn: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  if (store.dialect === "postgres") {
    return store.db.transaction().execute(async (tx) => {
      await sql`set local synchronous_commit to off`.execute(tx);
      return fn(tx);
    });
  }
  return store.db.connection().execute(async (conn) => {
    let level = syncLevels.get(store);
    if (level === undefined) {
      level = Number((await sql<{ synchronous: number }>`pragma synchronous`.execute(conn)).rows[0]?.synchronous ?? 2);
      syncLevels.set(store, level);
    }
    if (level <= 1) return fn(conn);
    await sql`pragma synchronous = normal`.execute(conn);
    try {
      return await fn(conn);
    } finally {
      await sql.raw(`pragma synchronous = ${level}`).execute(conn);
    }
  });
}

/**
 * Counts one hit in a fixed window and returns the count including it, in ONE statement
 * (INSERT … ON CONFLICT DO UPDATE … RETURNING, atomic on SQLite and PostgreSQL): the first hit opens
 * a window of `windowMs`; hits after it has closed open a new one. Concurrent hits from any number
 * of instances each see a distinct count.
 */
export async function hitWindow(store: Store, h: CounterHit): Promise<{ count: number; expiresAt: number }> {
  const expired = sql<boolean>`${col("expires_at")} <= ${h.now}`;
  const row = await relaxedWrite(store, (db) => db.insertInto("rate_limits")
    .values({ bucket: h.bucket, key: h.key, count: 1, updated_at: h.now, expires_at: h.now + h.windowMs, blocked_until: 0 })
    .onConflict((oc) => oc.columns(["bucket", "key"]).doUpdateSet({
      count: sql<number>`case when ${expired} then 1 else ${col("count")} + 1 end`,
      expires_at: sql<number>`case when ${expired} then ${h.now + h.windowMs} else ${col("expires_at")} end`,
      updated_at: h.now,
    }))
    .returning(["count", "expires_at"])
    .executeTakeFirstOrThrow());
  return { count: Number(row.count), expiresAt: Number(row.expires_at) };
}

/**
 * Admits one attempt unless the key is blocked, in ONE statement: the attempt is counted before its
 * outcome is known (so N concurrent attempts cannot all slip under a cap), the row is remembered for
 * `windowMs` after it, and `blocked_until` is set to now + `blockMs[count - 1]` (the last entry for
 * any higher count) — the wait the caller wants should this attempt fail. A blocked key gets
 * undefined and nothing changes; the caller clears the row when the attempt succeeds.
 */
export async function admitAttempt(store: Store, h: CounterHit & { blockMs: readonly number[] }): Promise<{ count: number } | undefined> {
  const expired = sql<boolean>`${col("expires_at")} <= ${h.now}`;
  const next = sql<number>`case when ${expired} then 1 else ${col("count")} + 1 end`;
  const row = await relaxedWrite(store, (db) => db.insertInto("rate_limits")
    .values({ bucket: h.bucket, key: h.key, count: 1, updated_at: h.now, expires_at: h.now + h.windowMs, blocked_until: h.blockMs[0] === 0 ? 0 : h.now + h.blockMs[0] })
    .onConflict((oc) => oc.columns(["bucket", "key"])
      .doUpdateSet({ count: next, updated_at: h.now, expires_at: h.now + h.windowMs, blocked_until: blockedUntil(next, h.now, h.blockMs) })
      .where((eb) => eb.or([eb(col("blocked_until"), "<=", h.now), eb(col("expires_at"), "<=", h.now)])))
    .returning(["count"])
    .executeTakeFirst());
  return row ? { count: Number(row.count) } : undefined;
}

/**
 * now + blockMs[count - 1] as SQL, and 0 (not now) where the wait is 0: a request that took its
 * timestamp a moment earlier (or on a host whose clock is a little behind) must not find itself
 * "blocked" by a wait of nothing. Waits are literals, so the statement text is stable and prepared
 * once; the cast keeps PostgreSQL from typing the parameter as int4 (it would overflow).
 */
function blockedUntil(count: RawBuilder<number>, now: number, blockMs: readonly number[]): RawBuilder<number> {
  const until = (ms: number) => (ms === 0 ? sql`0` : sql`cast(${now} as bigint) + ${sql.lit(ms)}`);
  const last = blockMs.length - 1;
  const whens = blockMs.slice(0, last).map((ms, i) => sql`when ${sql.lit(i + 1)} then ${until(ms)}`);
  return (whens.length ? sql`case ${count} ${sql.join(whens, sql` `)} else ${until(blockMs[last])} end` : until(blockMs[last])) as RawBuilder<number>;
}

/** Reads one counter (undefined when it does not exist). */
export async function findCounter(db: Kysely<DB>, bucket: string, key: string): Promise<CounterRow | undefined> {
  return db.selectFrom("rate_limits").selectAll().where("bucket", "=", bucket).where("key", "=", key).executeTakeFirst();
}

/** Gives one counted attempt back (a success admitted by a failure bucket): the count drops by one while its window lasts. */
export async function releaseHit(store: Store, bucket: string, key: string, now: number): Promise<void> {
  await relaxedWrite(store, (db) => db.updateTable("rate_limits").set({ count: sql<number>`${col("count")} - 1` })
    .where("bucket", "=", bucket).where("key", "=", key).where("count", ">", 0).where("expires_at", ">", now).execute());
}

/** Deletes one counter (relaxed durability, as the upserts); true when there was one. */
export async function deleteCounter(store: Store, bucket: string, key: string): Promise<boolean> {
  const r = await relaxedWrite(store, (db) => db.deleteFrom("rate_limits").where("bucket", "=", bucket).where("key", "=", key).executeTakeFirst());
  return Number(r.numDeletedRows) > 0;
}

/** Deletes every counter of a key (all buckets) and returns the rows it deleted. */
export async function deleteCountersByKey(db: Kysely<DB>, key: string): Promise<CounterRow[]> {
  return db.deleteFrom("rate_limits").where("key", "=", key).returningAll().execute();
}

/** Counters still alive at `now` (window open or blocked), by bucket then key. */
export async function listLiveCounters(db: Kysely<DB>, now: number, limit = 1000): Promise<CounterRow[]> {
  return db.selectFrom("rate_limits").selectAll()
    .where((eb) => eb.or([eb("expires_at", ">", now), eb("blocked_until", ">", now)]))
    .orderBy("bucket").orderBy("key").limit(limit).execute();
}

/** Deletes counters whose window and block have both passed. */
export async function deleteExpiredCounters(db: Kysely<DB>, now: number): Promise<number> {
  const r = await db.deleteFrom("rate_limits").where("expires_at", "<=", now).where("blocked_until", "<=", now).executeTakeFirst();
  return Number(r.numDeletedRows);
}
