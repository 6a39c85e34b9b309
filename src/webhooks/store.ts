import { sql, type Expression, type Kysely, type Selectable, type SqlBool } from "kysely";
import { prepareQuery } from "../store/prepared.js";
import type { DB } from "../store/schema.js";

/** An endpoint the app registered (migration 009). `events` is "*" or ",a,b,". */
export interface WebhookEndpointsTable {
  id: string;
  url: string;
  /** The whsec_ signing secret: it signs, so it is kept, never logged and never listed. */
  secret: string;
  events: string;
  description: string | null;
  /** "config" endpoints are kept in step with the webhooks setting at start; "api" ones with the CLI/admin API. */
  source: "api" | "config";
  enabled: number;
  /** Failed attempts in a row (any delivery); a success sets it back to 0. */
  failure_streak: number;
  disabled_at: number | null;
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
}

/** One event for one endpoint: the delivery log and the queue in one row (leased like mail_outbox). */
export interface WebhookDeliveriesTable {
  id: string;
  /** The webhook-id header: the same for every endpoint and every attempt of one event (idempotency). */
  message_id: string;
  endpoint_id: string;
  event_type: string;
  payload: string;
  created_at: number;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  next_attempt_at: number;
  lease_until: number | null;
  lease_owner: string | null;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: number | null;
  delivered_at: number | null;
  replay_of: string | null;
}

export type WebhookTables = {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
};

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

// The tables belong to this room; the kernel's schema (store/schema.ts) does not list them.
const wh = (db: Kysely<DB>) => db.withTables<WebhookTables>();

/**
 * Queues one delivery of an event to every endpoint subscribed to its type: one statement, in the
 * event's transaction, and no rows at all when no endpoint wants it. Returns how many. A disabled
 * endpoint's deliveries are queued too: they wait (sendableNow) until it is enabled again.
 */
export async function queueDeliveries(db: Kysely<DB>, d: { messageId: string; type: string; payload: string; at: number }): Promise<number> {
  // PostgreSQL types the parameters of a SELECT list from casts, not from the INSERT's columns.
  const r = await sql`insert into webhook_deliveries (id, message_id, endpoint_id, event_type, payload, created_at, status, attempts, next_attempt_at)
    select cast(${d.messageId} as text) || '.' || e.id, cast(${d.messageId} as text), e.id, cast(${d.type} as text), cast(${d.payload} as text), cast(${d.at} as bigint), 'pending', 0, cast(${d.at} as bigint)
    from webhook_endpoints e where (e.events = '*' or e.events like ${`%,${d.type},%`})`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/** Whether any endpoint is registered, enabled or not (queueDeliveries queues for disabled ones too). */
export async function hasEndpoints(db: Kysely<DB>): Promise<boolean> {
  return (await anyEndpointQuery(db)).rows.length > 0;
}

// Every published event asks first (store/prepared.ts).
const anyEndpointQuery = prepareQuery<[], { id: string }>(0, (db) => wh(db).selectFrom("webhook_endpoints").select("id").limit(1));

/** The email of a user row (the user.created payload names the address). */
export async function findUserEmail(db: Kysely<DB>, userId: string): Promise<string | undefined> {
  return (await userEmailQuery(db, userId)).rows[0]?.email;
}

// Every sign-up's user.created reads it (store/prepared.ts).
const userEmailQuery = prepareQuery<[string], { email: string }>(1, (db, id) => db.selectFrom("users").select("email").where("id", "=", id));

export async function insertEndpoint(db: Kysely<DB>, row: EndpointRow): Promise<void> {
  await wh(db).insertInto("webhook_endpoints").values(row).execute();
}

export async function updateEndpoint(db: Kysely<DB>, id: string, set: Partial<EndpointRow>): Promise<boolean> {
  const r = await wh(db).updateTable("webhook_endpoints").set(set).where("id", "=", id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function findEndpoint(db: Kysely<DB>, id: string): Promise<EndpointRow | undefined> {
  return wh(db).selectFrom("webhook_endpoints").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function listEndpoints(db: Kysely<DB>): Promise<EndpointRow[]> {
  return wh(db).selectFrom("webhook_endpoints").selectAll().orderBy("created_at").orderBy("id").execute();
}

/** Deletes an endpoint and its delivery log. */
export async function deleteEndpoint(db: Kysely<DB>, id: string): Promise<boolean> {
  await wh(db).deleteFrom("webhook_deliveries").where("endpoint_id", "=", id).execute();
  const r = await wh(db).deleteFrom("webhook_endpoints").where("id", "=", id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** A success ends the endpoint's failure streak. */
export async function resetFailureStreak(db: Kysely<DB>, id: string): Promise<void> {
  await wh(db).updateTable("webhook_endpoints").set({ failure_streak: 0 }).where("id", "=", id).where("failure_streak", "<>", 0).execute();
}

/** Counts one more failure in a row; returns the streak and whether the endpoint is still enabled. */
export async function addFailure(db: Kysely<DB>, id: string): Promise<{ streak: number; enabled: boolean } | undefined> {
  const r = await wh(db).updateTable("webhook_endpoints").set((eb) => ({ failure_streak: eb("failure_streak", "+", 1) }))
    .where("id", "=", id).returning(["failure_streak", "enabled"]).executeTakeFirst();
  return r && { streak: r.failure_streak, enabled: r.enabled === 1 };
}

/** Disables an enabled endpoint; false when it was disabled already (only one caller wins). */
export async function disableEndpoint(db: Kysely<DB>, id: string, o: { now: number; reason: string }): Promise<boolean> {
  const r = await wh(db).updateTable("webhook_endpoints").set({ enabled: 0, disabled_at: o.now, disabled_reason: o.reason, updated_at: o.now })
    .where("id", "=", id).where("enabled", "=", 1).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function findDelivery(db: Kysely<DB>, id: string): Promise<DeliveryRow | undefined> {
  return wh(db).selectFrom("webhook_deliveries").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The delivery log, newest first. */
export async function listDeliveries(db: Kysely<DB>, o: { endpointId?: string; status?: string; limit: number }): Promise<DeliveryRow[]> {
  let q = wh(db).selectFrom("webhook_deliveries").selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(o.limit);
  if (o.endpointId) q = q.where("endpoint_id", "=", o.endpointId);
  if (o.status) q = q.where("status", "=", o.status as DeliveryRow["status"]);
  return q.execute();
}

/** Deliveries waiting (first try or retry) and given up: one index range, by (status, next_attempt_at). */
export async function countDeliveries(db: Kysely<DB>): Promise<{ pending: number; failed: number }> {
  const rows = await wh(db).selectFrom("webhook_deliveries")
    .select((eb) => ["status", eb.fn.countAll<number | string>().as("n")]).where("status", "in", ["pending", "failed"]).groupBy("status").execute();
  const n = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  return { pending: n("pending"), failed: n("failed") };
}

export async function insertDelivery(db: Kysely<DB>, row: DeliveryRow): Promise<void> {
  await wh(db).insertInto("webhook_deliveries").values(row).execute();
}

/** Records the outcome of an attempt; only the lease holder may (false when the lease was lost). */
export async function recordAttempt(db: Kysely<DB>, id: string, owner: string, o: { now: number; status: DeliveryRow["status"]; httpStatus: number | null; error: string | null; nextAttemptAt?: number }): Promise<boolean> {
  const r = await wh(db).updateTable("webhook_deliveries")
    .set({
      status: o.status, last_status: o.httpStatus, last_error: o.error === null ? null : o.error.slice(0, 500), last_attempt_at: o.now,
      lease_owner: null, lease_until: null,
      ...(o.status === "delivered" ? { delivered_at: o.now } : {}),
      ...(o.nextAttemptAt !== undefined ? { next_attempt_at: o.nextAttemptAt } : {}),
    })
    .where("id", "=", id).where("lease_owner", "=", owner).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Deletes finished deliveries created before `before` (the log's retention). */
export async function deleteFinishedDeliveries(db: Kysely<DB>, before: number): Promise<number> {
  const r = await wh(db).deleteFrom("webhook_deliveries").where("status", "in", ["delivered", "failed"]).where("created_at", "<", before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** The claim's condition for deliveries that may go out now: to an enabled endpoint that is not at its limit in flight (`full`). */
export function sendableNow(full: string[]): Expression<SqlBool> {
  const enabled = sql<SqlBool>`endpoint_id in (select id from webhook_endpoints where enabled = 1)`;
  return full.length ? sql<SqlBool>`(${enabled} and endpoint_id not in (${sql.join(full)}))` : enabled;
}

/** Gives a claimed delivery back untried (its endpoint was disabled meanwhile): pending, the attempt not counted. */
export async function releaseClaim(db: Kysely<DB>, id: string, owner: string): Promise<void> {
  await wh(db).updateTable("webhook_deliveries").set((eb) => ({ lease_owner: null, lease_until: null, attempts: eb("attempts", "-", 1) }))
    .where("id", "=", id).where("lease_owner", "=", owner).where("status", "=", "pending").execute();
}

/** An endpoint enabled again: its waiting deliveries are due now, not at the end of a backoff. */
export async function makePendingDue(db: Kysely<DB>, endpointId: string, now: number): Promise<number> {
  const r = await wh(db).updateTable("webhook_deliveries").set({ next_attempt_at: now })
    .where("endpoint_id", "=", endpointId).where("status", "=", "pending").where("next_attempt_at", ">", now).executeTakeFirst();
  return Number(r.numUpdatedRows);
}
