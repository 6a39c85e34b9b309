import type { Kysely, Selectable } from "kysely";
import type { DB, MailOutboxTable } from "./schema.js";

/**
 * The reads behind the dashboard's overview and outbox (no rules: which states exist and what they
 * mean is core/ops-views.ts). Every count here walks an index range: events by (type, at), the
 * outbox by (status, next_attempt_at); only the people count scans the users, which is why its
 * caller caches it.
 */

/** People: users rows that are a person of their own (not a login method linked into another). */
export async function countPeople(db: Kysely<DB>): Promise<number> {
  const r = await db.selectFrom("users").select((eb) => eb.fn.countAll<number | string>().as("n")).where("primary_user_id", "is", null).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Events of one type at or after `since` (events_type_idx is (type, at)). */
export async function countEventsSince(db: Kysely<DB>, type: string, since: number): Promise<number> {
  const r = await db.selectFrom("events").select((eb) => eb.fn.countAll<number | string>().as("n")).where("type", "=", type).where("at", ">=", since).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The outbox by state: never tried, tried and waiting for another attempt, given up. */
export async function countOutbox(db: Kysely<DB>): Promise<{ pending: number; retrying: number; failed: number }> {
  const rows = await db.selectFrom("mail_outbox")
    .select((eb) => ["status", eb.case().when("attempts", ">", 0).then(1).else(0).end().as("tried"), eb.fn.countAll<number | string>().as("n")])
    .where("status", "in", ["pending", "failed"]).groupBy(["status", "tried"]).execute();
  const out = { pending: 0, retrying: 0, failed: 0 };
  for (const r of rows) {
    if (r.status === "failed") out.failed += Number(r.n);
    else if (Number(r.tried) === 1) out.retrying += Number(r.n);
    else out.pending += Number(r.n);
  }
  return out;
}

/** An outbox row without its bodies and headers: the dashboard never reads what the mail says. */
export type OutboxListRow = Pick<Selectable<MailOutboxTable>, "id" | "created_at" | "kind" | "to_address" | "status" | "attempts" | "next_attempt_at" | "lease_until" | "last_error" | "sent_at">;

/** Which rows a listing wants, as the store can say it (core/ops-views.ts maps the dashboard's states to this). */
export interface OutboxFilter {
  status?: "pending" | "sent" | "failed";
  tried?: boolean;
  /** Leased (being sent) at `now`, or not. */
  leased?: { now: number; value: boolean };
}

/**
 * One page of the outbox, newest first, after the cursor (created_at, id) when given. The body
 * columns are not even selected, so they cannot end up on a page by mistake.
 */
export async function listOutboxPage(db: Kysely<DB>, o: { filter: OutboxFilter; before?: { at: number; id: string }; limit: number }): Promise<OutboxListRow[]> {
  let q = db.selectFrom("mail_outbox")
    .select(["id", "created_at", "kind", "to_address", "status", "attempts", "next_attempt_at", "lease_until", "last_error", "sent_at"])
    .orderBy("created_at", "desc").orderBy("id", "desc").limit(o.limit);
  const f = o.filter;
  if (f.status) q = q.where("status", "=", f.status);
  if (f.tried !== undefined) q = q.where("attempts", f.tried ? ">" : "=", 0);
  if (f.leased) {
    const now = f.leased.now;
    q = f.leased.value
      ? q.where("lease_until", ">", now)
      : q.where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", now)]));
  }
  const b = o.before;
  if (b) q = q.where((eb) => eb.or([eb("created_at", "<", b.at), eb.and([eb("created_at", "=", b.at), eb("id", "<", b.id)])]));
  return q.execute();
}
