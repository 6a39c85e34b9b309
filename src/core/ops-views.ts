import * as views from "../store/ops-views.js";
import type { OutboxListRow } from "../store/ops-views.js";
import { badInput } from "./errors.js";
import type { CoreContext } from "./context.js";

/**
 * What an operator sees of the running service at a glance (the dashboard's overview) and of the
 * mail outbox. Reads only; the counts of today are live (each an index range), the people count is
 * cached (it is the one count that scans a table of a million rows).
 */

/** How long the people count is reused: a count over 1M users took ~200 ms on PostgreSQL (~50 ms on SQLite); once a minute per process is fine. */
export const PEOPLE_COUNT_TTL_MS = 60_000;

export interface Overview {
  people: { count: number; countedAt: number };
  /** Since 00:00 UTC today. Sign-ins are sessions started (a sign-up starts one too); failures are wrong passwords. */
  today: { since: number; signIns: number; failedSignIns: number; signUps: number };
  mail: { pending: number; retrying: number; failed: number };
}

const peopleCache = new WeakMap<CoreContext, { at: number; count: Promise<number> }>();

/** The overview's numbers. Concurrent page views share one people count; a failed count is not kept. */
export async function readOverview(ctx: CoreContext): Promise<Overview> {
  const now = ctx.clock.now();
  const since = now - (now % 86_400_000);
  let cached = peopleCache.get(ctx);
  if (!cached || now - cached.at >= PEOPLE_COUNT_TTL_MS || now < cached.at) {
    const entry = { at: now, count: views.countPeople(ctx.store.db) };
    entry.count.catch(() => { if (peopleCache.get(ctx) === entry) peopleCache.delete(ctx); });
    peopleCache.set(ctx, entry);
    cached = entry;
  }
  const db = ctx.store.db;
  const [count, signIns, failedSignIns, signUps, mail] = await Promise.all([
    cached.count,
    views.countEventsSince(db, "session.created", since),
    views.countEventsSince(db, SIGN_IN_FAILED_EVENT, since),
    views.countEventsSince(db, "user.signed_up", since),
    views.countOutbox(db),
  ]);
  return { people: { count, countedAt: cached.at }, today: { since, signIns, failedSignIns, signUps }, mail };
}

/** The event a wrong email/password pair records (core/sign-in-failures.ts). */
export const SIGN_IN_FAILED_EVENT = "user.sign_in_failed";

/** The states the outbox page names; the table stores three statuses, the rest is derived. */
export const OUTBOX_STATES = ["pending", "sending", "retrying", "sent", "failed"] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/** A queued mail as operators see it: no body, no headers (the bodies hold sign-in and reset links). */
export interface OutboxView {
  id: string; createdAt: number; kind: string; to: string; state: OutboxState; attempts: number;
  /** When it is tried next (pending and retrying only). */
  nextAttemptAt: number | null;
  lastError: string | null; sentAt: number | null;
}

function stateOf(r: OutboxListRow, now: number): OutboxState {
  if (r.status === "sent") return "sent";
  if (r.status === "failed") return "failed";
  if (r.lease_until !== null && Number(r.lease_until) > now) return "sending";
  return r.attempts > 0 ? "retrying" : "pending";
}

function filterOf(state: OutboxState | undefined, now: number): views.OutboxFilter {
  switch (state) {
    case undefined: return {};
    case "sent": case "failed": return { status: state };
    case "sending": return { status: "pending", leased: { now, value: true } };
    case "retrying": return { status: "pending", tried: true, leased: { now, value: false } };
    case "pending": return { status: "pending", tried: false, leased: { now, value: false } };
  }
}

const CURSOR = /^(\d{1,15})~([A-Za-z0-9-]{1,64})$/;

/**
 * One page of the outbox, newest first: `state` one of OUTBOX_STATES (or none for all), `after` the
 * `next` of the previous page. Bad input is BAD_INPUT (the page says what was wrong).
 */
export async function listOutbox(ctx: CoreContext, o: { state?: string; after?: string; limit?: number }): Promise<{ items: OutboxView[]; next?: string }> {
  if (o.state !== undefined && !OUTBOX_STATES.includes(o.state as OutboxState)) throw badInput(`state must be one of ${OUTBOX_STATES.join(", ")}`);
  let before: { at: number; id: string } | undefined;
  if (o.after !== undefined) {
    const m = CURSOR.exec(o.after);
    if (!m) throw badInput("the page cursor is not one this page made");
    before = { at: Number(m[1]), id: m[2] };
  }
  const limit = o.limit ?? 50;
  const now = ctx.clock.now();
  // One row more than shown tells whether another page exists, without a count.
  const rows = await views.listOutboxPage(ctx.store.db, { filter: filterOf(o.state as OutboxState | undefined, now), before, limit: limit + 1 });
  const items = rows.slice(0, limit).map((r): OutboxView => {
    const state = stateOf(r, now);
    return {
      id: r.id, createdAt: Number(r.created_at), kind: r.kind, to: r.to_address, state, attempts: r.attempts,
      nextAttemptAt: state === "pending" || state === "retrying" ? Number(r.next_attempt_at) : null,
      lastError: r.last_error, sentAt: r.sent_at === null ? null : Number(r.sent_at),
    };
  });
  const last = items[items.length - 1];
  return { items, next: rows.length > limit && last ? `${last.createdAt}~${last.id}` : undefined };
}
