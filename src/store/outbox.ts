import type { Insertable, Kysely, Selectable } from "kysely";
import type { Dialect } from "./database.js";
import type { DB, MailOutboxTable } from "./schema.js";
import { claimDueRows, renewRowLeases } from "./leased-queue.js";

export type OutboxRow = Selectable<MailOutboxTable>;
export type NewOutboxRow = Insertable<MailOutboxTable>;

/** Queues a message (inside the caller's transaction, next to the change that caused it). */
export async function insertOutboxMessage(db: Kysely<DB>, row: NewOutboxRow): Promise<void> {
  await db.insertInto("mail_outbox").values(row).execute();
}

/** Claims due messages for `owner` (see claimDueRows: leases, SKIP LOCKED, attempt counted). */
export function claimDueMessages(db: Kysely<DB>, dialect: Dialect, opts: { now: number; owner: string; leaseUntil: number; limit: number }): Promise<OutboxRow[]> {
  return claimDueRows<OutboxRow>(db, dialect, "mail_outbox", opts);
}

/** Heartbeat: extends the leases `owner` still holds on these messages (see renewRowLeases). */
export function renewLeases(db: Kysely<DB>, owner: string, ids: readonly string[], leaseUntil: number): Promise<number> {
  return renewRowLeases(db, "mail_outbox", owner, ids, leaseUntil);
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

/**
 * Makes a message that failed and waits for its next attempt due now; only such a message (pending,
 * tried before, not leased by a worker at `now`). Returns false when the row is not one.
 */
export async function advanceRetry(db: Kysely<DB>, id: string, now: number): Promise<boolean> {
  const r = await db.updateTable("mail_outbox").set({ next_attempt_at: now })
    .where("id", "=", id).where("status", "=", "pending").where("attempts", ">", 0)
    .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", now)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Whether a message exists at all (to tell "no such message" from "not one that can be retried"). */
export async function hasOutboxMessage(db: Kysely<DB>, id: string): Promise<boolean> {
  return (await db.selectFrom("mail_outbox").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
}
