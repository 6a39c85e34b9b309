import type { Expression, Kysely, SqlBool } from "kysely";
import type { Dialect } from "./database.js";

/**
 * The columns every leased queue table has (mail_outbox, and a room's queue of its background work):
 * a row is due while `status` is "pending", `next_attempt_at` has passed and no live lease holds it.
 */
export interface LeasedRow {
  id: string;
  status: string;
  attempts: number;
  created_at: number;
  next_attempt_at: number;
  lease_until: number | null;
  lease_owner: string | null;
}

/** The name of a table with those columns (a room names its own table). */
export type QueueTable = string;
// The tables share the lease columns; Kysely cannot type a query over "any such table", so the
// queries below see a database of exactly those columns.
type QueueDB = Record<QueueTable, LeasedRow>;
const asQueue = (db: Kysely<any>) => db as unknown as Kysely<QueueDB>;

/**
 * Claims up to `limit` due rows of `table` for `owner` until `leaseUntil` and counts the attempt. Run it in
 * a write transaction: on PostgreSQL the rows are picked with FOR UPDATE SKIP LOCKED, so workers of
 * several instances never claim the same row; on SQLite BEGIN IMMEDIATE serialises the claimers.
 * A row whose lease ran out (its worker died mid-delivery) is due again.
 */
export async function claimDueRows<Row extends LeasedRow>(db: Kysely<any>, dialect: Dialect, table: QueueTable, opts: { now: number; owner: string; leaseUntil: number; limit: number; only?: Expression<SqlBool> }): Promise<Row[]> {
  const q = asQueue(db);
  const { now } = opts;
  let due = q.selectFrom(table).select("id")
    .where("status", "=", "pending").where("next_attempt_at", "<=", now)
    .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", now)]))
    .orderBy("next_attempt_at").orderBy("created_at").limit(opts.limit);
  // The queue's own condition on top (webhooks: enabled endpoints, not those at their limit in flight).
  if (opts.only) due = due.where(opts.only);
  // PostgreSQL: the pick is a CTE, evaluated once. As an `IN (subquery … LIMIT)` the planner may
  // run the subquery again per row of a join, and with SKIP LOCKED each run skips the rows the
  // last one locked: a claim of 10 took every due row (25 in test/webhooks/shutdown.test.ts).
  const claim = dialect === "postgres"
    ? q.with("picked", () => due.forUpdate().skipLocked()).updateTable(table).where("id", "in", (eb) => eb.selectFrom("picked").select("picked.id"))
    : q.updateTable(table).where("id", "in", due);
  const rows = await claim
    .set((eb) => ({ lease_owner: opts.owner, lease_until: opts.leaseUntil, attempts: eb("attempts", "+", 1) }))
    .where("status", "=", "pending")
    .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", now)]))
    .returningAll()
    .execute();
  return rows as unknown as Row[];
}

/**
 * Heartbeat: extends the lease of the given rows, only where `owner` still holds it (a row that
 * was finished or taken over is left alone). Returns how many leases were extended.
 */
export async function renewRowLeases(db: Kysely<any>, table: QueueTable, owner: string, ids: readonly string[], leaseUntil: number): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await asQueue(db).updateTable(table).set({ lease_until: leaseUntil })
    .where("id", "in", [...ids]).where("lease_owner", "=", owner).where("status", "=", "pending").executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Gives claimed rows back untried: no lease, the claim's attempt not counted (a lane was full). */
export async function releaseRows(db: Kysely<any>, table: QueueTable, owner: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await asQueue(db).updateTable(table).set((eb) => ({ lease_owner: null, lease_until: null, attempts: eb("attempts", "-", 1) }))
    .where("id", "in", [...ids]).where("lease_owner", "=", owner).where("status", "=", "pending").execute();
}
