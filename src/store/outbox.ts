import type { Insertable, Kysely, Selectable } from "kysely";
import type { Dialect } from "./database.js";
import type { DB, MailOutboxTable } from "./schema.js";

export type OutboxRow = Selectable<MailOutboxTable>;
export type NewOutboxRow = Insertable<MailOutboxTable>;

/** Queues a message (inside the caller's transaction, next to the change that caused it). */
export async function insertOutboxMessage(db: Kysely<DB>, row: NewOutboxRow): Promise<void> {
  await db.insertInto("mail_outbox").values(row).execute();
}

/**
 * Claims up to `limit` due messages for `owner` until `leaseUntil` and counts the attempt. Run it in a
 * write transaction: on PostgreSQL the rows are picked with FOR UPDATE SKIP LOCKED, so workers of
 * several instances never claim the same row; on SQLite BEGIN IMMEDIATE serialises the claimers.
 * A row whose lease ran out (its worker died mid-delivery) is due again.
 */
export async function claimDueMessages(db: Kysely<DB>, dialect: Dialect, opts: { now: number; owner: string; leaseUntil: number; limit: number }): Promise<OutboxRow[]> {
  const { now } = opts;
  const due = db.selectFrom("mail_outbox").select("id")
    .where("status", "=", "pending").where("next_attempt_at", "<=", now)
    .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", now)]))
    .orderBy("next_attempt_at").orderBy("created_at").limit(opts.limit);
  const picked = dialect === "postgres" ? due.forUpdate().skipLocked() : due;
  return db.updateTable("mail_outbox")
    .set((eb) => ({ lease_owner: opts.owner, lease_until: opts.leaseUntil, attempts: eb("attempts", "+", 1) }))
    .where("id", "in", picked)
    .where("status", "=", "pending")
    .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", now)]))
    .returningAll()
    .execute();
}

/**
 * Heartbeat: extends the lease of the given messages, only where `owner` still holds it (a row that
 * was sent, failed or taken over is left alone). Returns how many leases were extended.
 */
export async function renewLeases(db: Kysely<DB>, owner: string, ids: readonly string[], leaseUntil: number): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await db.updateTable("mail_outbox").set({ lease_until: leaseUntil })
    .where("id", "in", [...ids]).where("lease_owner", "=", owner).where("status", "=", "pending").executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * Records a delivery and scrubs the bodies (they hold raw tokens). Only the lease holder may do it;
 * returns false when the lease was lost.
 */
export async function markMessageSent(db: Kysely<DB>, id: string, owner: string, opts: { now: number; response: string }): Promise<boolean> {
  const r = await db.updateTable("mail_outbox")
    .set({ status: "sent", sent_at: opts.now, smtp_response: opts.response, text_body: null, html_body: null, lease_owner: null, lease_until: null })
    .where("id", "=", id).where("lease_owner", "=", owner).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Records a failed attempt with the relay's reply; the row is retried at `nextAttemptAt`, or given up. */
export async function markMessageFailed(db: Kysely<DB>, id: string, owner: string, opts: { error: string; nextAttemptAt: number; giveUp: boolean }): Promise<boolean> {
  const r = await db.updateTable("mail_outbox")
    .set({
      status: opts.giveUp ? "failed" : "pending",
      last_error: opts.error.slice(0, 2000),
      next_attempt_at: opts.nextAttemptAt,
      lease_owner: null,
      lease_until: null,
      // A message that will never go out must not keep its token around either.
      ...(opts.giveUp ? { text_body: null, html_body: null } : {}),
    })
    .where("id", "=", id).where("lease_owner", "=", owner).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Deletes sent or failed messages finished before `before` (their bodies are gone already). */
export async function deleteFinishedMessages(db: Kysely<DB>, before: number): Promise<number> {
  const r = await db.deleteFrom("mail_outbox").where("status", "in", ["sent", "failed"]).where("created_at", "<", before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Messages, oldest first, optionally of one kind or recipient (tests and admin tooling). */
export async function listOutboxMessages(db: Kysely<DB>, opts: { kind?: string; to?: string } = {}): Promise<OutboxRow[]> {
  let q = db.selectFrom("mail_outbox").selectAll().orderBy("created_at").orderBy("id");
  if (opts.kind) q = q.where("kind", "=", opts.kind);
  if (opts.to) q = q.where("to_address", "=", opts.to);
  return q.execute();
}
