import { createHash } from "node:crypto";
import type { CoreContext } from "../core/context.js";
import { AuthError, badInput } from "../core/errors.js";
import { insertEvent } from "../store/events.js";
import { createId } from "../util/random.js";
import { normaliseEventList } from "./events.js";
import { kickWorkersAfterCommit } from "./queue.js";
import * as repo from "./store.js";
import { checkEndpointUrl, checkSecret, type ConfiguredEndpoint } from "./settings.js";
import { sealEndpointSecret, sealPlainEndpointSecrets } from "./secrets.js";
import { BLOCKED_TARGET_MESSAGE, webhookTargetPolicy } from "./targets.js";
import { assertAllowedTarget } from "../util/outbound-guard.js";

/**
 * What operators do with endpoints and the delivery log: the CLI (`authsvc webhooks …`) and the
 * admin API call these same functions. Secrets are returned once, when an endpoint is made.
 */

/** An endpoint as operators see it: never its secret. */
export function endpointView(r: repo.EndpointRow) {
  return {
    id: r.id, url: r.url, events: (r.events === "*" ? "*" : r.events.split(",").filter(Boolean)) as "*" | string[], description: r.description,
    source: r.source, enabled: r.enabled === 1, failureStreak: r.failure_streak,
    disabledAt: r.disabled_at, disabledReason: r.disabled_reason, createdAt: r.created_at,
  };
}
export type EndpointView = ReturnType<typeof endpointView>;

/** A delivery as the log shows it: status codes, attempts, next attempt, last error. */
export function deliveryView(r: repo.DeliveryRow) {
  return {
    id: r.id, messageId: r.message_id, endpointId: r.endpoint_id, type: r.event_type, status: r.status, attempts: r.attempts,
    lastStatus: r.last_status, lastError: r.last_error, lastAttemptAt: r.last_attempt_at,
    nextAttemptAt: r.status === "pending" ? r.next_attempt_at : null, deliveredAt: r.delivered_at, createdAt: r.created_at, replayOf: r.replay_of,
  };
}
export type DeliveryView = ReturnType<typeof deliveryView>;

const toStored = (events: string[] | "*") => (events === "*" ? "*" : `,${events.join(",")},`);

/** Registers an endpoint; returns it with its secret (shown this once). */
export async function addEndpoint(ctx: CoreContext, input: { url: unknown; events?: unknown; description?: unknown; secret?: unknown }): Promise<EndpointView & { secret: string }> {
  let url: string, secret: string, events: string[] | "*";
  try {
    url = checkEndpointUrl(input.url);
    events = normaliseEventList(ctx.webhookEvents, input.events);
    secret = checkSecret(input.secret);
  } catch (err) { throw badInput((err as Error).message); }
  await assertAllowedTarget(webhookTargetPolicy(ctx.config), new URL(url)).catch(() => { throw badInput(BLOCKED_TARGET_MESSAGE); });
  if (input.description !== undefined && (typeof input.description !== "string" || input.description.length > 200)) throw badInput("description must be text of at most 200 characters");
  const now = ctx.clock.now();
  const id = `ep_${createId().replace(/-/g, "")}`;
  const row: repo.EndpointRow = {
    id, url, secret: sealEndpointSecret(secret, ctx.config.secret, id), events: toStored(events), description: (input.description as string | undefined) ?? null,
    source: "api", enabled: 1, failure_streak: 0, disabled_at: null, disabled_reason: null, created_at: now, updated_at: now,
  };
  await ctx.store.writeTx((tx) => repo.insertEndpoint(tx, row));
  ctx.logger.info("webhook endpoint added", { id: row.id, url });
  return { ...endpointView(row), secret };
}

export async function listEndpointViews(ctx: CoreContext): Promise<EndpointView[]> {
  return (await repo.listEndpoints(ctx.store.db)).map(endpointView);
}

async function requireEndpoint(ctx: CoreContext, id: string): Promise<repo.EndpointRow> {
  const row = await repo.findEndpoint(ctx.store.db, id);
  if (!row) throw new AuthError("NOT_FOUND", "No such webhook endpoint");
  return row;
}

/** Removes an endpoint and its delivery log. Endpoints from the config file are removed there. */
export async function removeEndpoint(ctx: CoreContext, id: string): Promise<void> {
  const row = await requireEndpoint(ctx, id);
  if (row.source === "config") throw badInput("this endpoint comes from the webhooks setting; remove it there");
  await ctx.store.writeTx((tx) => repo.deleteEndpoint(tx, id));
}

/**
 * Turns a disabled endpoint back on (its failure streak starts again at 0), with an event naming
 * who did (`source`: "cli", "admin-api", "admin:<id>"). The deliveries queued while it was
 * disabled (and those waiting for a retry) are due at once.
 */
export async function enableEndpoint(ctx: CoreContext, id: string, source = "api"): Promise<EndpointView> {
  await requireEndpoint(ctx, id);
  const now = ctx.clock.now();
  await ctx.store.writeTx(async (tx) => {
    await repo.updateEndpoint(tx, id, { enabled: 1, failure_streak: 0, disabled_at: null, disabled_reason: null, updated_at: now });
    await insertEvent(tx, { at: now, type: "webhook.endpoint_enabled", userId: null, data: { endpointId: id, source } });
    // What waited while it was disabled goes out now, in the order it was queued.
    await repo.makePendingDue(tx, id, now);
    kickWorkersAfterCommit(tx);
  });
  return endpointView((await repo.findEndpoint(ctx.store.db, id))!);
}

/**
 * Turns an endpoint off by hand (a receiver under maintenance): nothing is sent to it until it is
 * enabled again; its events keep being queued and go out then. The same event as a failure streak's disabling, with the operator as source.
 */
export async function disableEndpointByOperator(ctx: CoreContext, id: string, source = "api"): Promise<EndpointView> {
  const row = await requireEndpoint(ctx, id);
  const now = ctx.clock.now();
  const changed = await ctx.store.writeTx(async (tx) => {
    if (!(await repo.disableEndpoint(tx, id, { now, reason: `turned off by ${source}` }))) return false;
    await insertEvent(tx, { at: now, type: "webhook.endpoint_disabled", userId: null, data: { endpointId: id, url: row.url, reason: "operator", source } });
    return true;
  });
  if (!changed) throw badInput(`endpoint ${id} is disabled already`);
  return endpointView((await repo.findEndpoint(ctx.store.db, id))!);
}

const STATUSES = ["pending", "delivered", "failed"];

/** The delivery log, newest first, optionally of one endpoint or status. */
export async function listDeliveryViews(ctx: CoreContext, o: { endpointId?: string; status?: string; limit?: number } = {}): Promise<DeliveryView[]> {
  if (o.status !== undefined && !STATUSES.includes(o.status)) throw badInput(`status must be one of ${STATUSES.join(", ")}`);
  const limit = o.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw badInput("limit must be a whole number from 1 to 1000");
  return (await repo.listDeliveries(ctx.store.db, { endpointId: o.endpointId, status: o.status, limit })).map(deliveryView);
}

/**
 * Sends a logged delivery again: a new delivery row with the same webhook-id and payload (the
 * receiver's idempotency key stays the same) to the same endpoint, due now. Returns the new row.
 */
export async function replayDelivery(ctx: CoreContext, id: string, source = "api"): Promise<DeliveryView> {
  const now = ctx.clock.now();
  const row = await ctx.store.writeTx(async (tx) => {
    const old = await repo.findDelivery(tx, id);
    if (!old) throw new AuthError("NOT_FOUND", "No such webhook delivery");
    const endpoint = await repo.findEndpoint(tx, old.endpoint_id);
    if (!endpoint) throw new AuthError("NOT_FOUND", "The endpoint of this delivery was removed");
    if (endpoint.enabled !== 1) throw badInput(`endpoint ${endpoint.id} is disabled; enable it first (authsvc webhooks enable ${endpoint.id})`);
    const fresh: repo.DeliveryRow = {
      ...old, id: `${old.message_id}.${createId().replace(/-/g, "").slice(0, 12)}`, created_at: now, status: "pending", attempts: 0, next_attempt_at: now,
      lease_until: null, lease_owner: null, last_status: null, last_error: null, last_attempt_at: null, delivered_at: null, replay_of: old.id,
    };
    await repo.insertDelivery(tx, fresh);
    await insertEvent(tx, { at: now, type: "webhook.delivery_replayed", userId: null, data: { deliveryId: fresh.id, replayOf: old.id, endpointId: endpoint.id, source } });
    kickWorkersAfterCommit(tx);
    return fresh;
  });
  return deliveryView(row);
}

/**
 * Keeps the endpoints of the webhooks setting in the table (at start): each gets a stable id from
 * its URL; its URL, secret and events follow the setting; one no longer configured is removed.
 * A disabled one stays disabled (a restart must not undo what the failure streak decided).
 */
export async function syncConfiguredEndpoints(ctx: CoreContext, configured: readonly ConfiguredEndpoint[]): Promise<void> {
  const now = ctx.clock.now();
  await ctx.store.writeTx(async (tx) => {
    const keep = new Set<string>();
    for (const c of configured) {
      const id = `cfg_${createHash("sha256").update(c.url).digest("hex").slice(0, 16)}`;
      keep.add(id);
      const set = { url: c.url, secret: sealEndpointSecret(c.secret, ctx.config.secret, id), events: toStored(c.events), description: c.description ?? null, updated_at: now };
      if (!(await repo.updateEndpoint(tx, id, set))) {
        await repo.insertEndpoint(tx, { id, ...set, source: "config", enabled: 1, failure_streak: 0, disabled_at: null, disabled_reason: null, created_at: now });
      }
    }
    for (const row of await repo.listEndpoints(tx)) if (row.source === "config" && !keep.has(row.id)) await repo.deleteEndpoint(tx, row.id);
    const sealed = await sealPlainEndpointSecrets(tx, ctx.config.secret);
    if (sealed > 0) ctx.logger.info("webhook endpoint secrets encrypted with the server secret", { endpoints: sealed });
  });
}
