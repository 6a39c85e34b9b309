import type { Kysely } from "kysely";
import type { DB } from "./schema.js";

/**
 * Coalesces point reads by key that arrive in the same event-loop turn into one query. On PostgreSQL
 * every query is a round trip and a server-side execution, and under load an authenticated request
 * is little more than that one read: fifty requests whose sockets became readable together cost one
 * `= any($1)` query instead of fifty. Each caller still gets its own read, made after its request
 * arrived and before it is answered, so nothing is served from a cache (revocation is seen at once).
 *
 * The batch is sent from setImmediate, i.e. right after the poll phase that delivered the requests,
 * so a lone request waits for nothing. A transaction is never batched (its reads belong to it); the
 * caller passes `db` as usual and a Transaction goes straight to `fetchMany` with one key.
 */
export function batchReads<K, R>(fetchMany: (db: Kysely<DB>, keys: K[]) => Promise<Map<K, R>>, maxBatch = 256) {
  interface Waiter { key: K; resolve: (r: R | undefined) => void; reject: (err: unknown) => void }
  const pending = new WeakMap<Kysely<DB>, Waiter[]>();

  const flush = (db: Kysely<DB>) => {
    const waiters = pending.get(db) ?? [];
    pending.delete(db);
    for (let i = 0; i < waiters.length; i += maxBatch) {
      const part = waiters.slice(i, i + maxBatch);
      fetchMany(db, [...new Set(part.map((w) => w.key))]).then(
        (rows) => { for (const w of part) w.resolve(rows.get(w.key)); },
        (err) => { for (const w of part) w.reject(err); },
      );
    }
  };

  return (db: Kysely<DB>, key: K): Promise<R | undefined> => {
    if (db.isTransaction) return fetchMany(db, [key]).then((rows) => rows.get(key));
    return new Promise((resolve, reject) => {
      let waiters = pending.get(db);
      if (!waiters) {
        waiters = [];
        pending.set(db, waiters);
        setImmediate(flush, db);
      }
      waiters.push({ key, resolve, reject });
    });
  };
}
