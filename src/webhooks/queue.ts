import type { Kysely } from "kysely";
import { afterCommit } from "../store/after-commit.js";
import type { NewEvent } from "../store/events.js";
import type { DB } from "../store/schema.js";
import { createId } from "../util/random.js";
import { toWebhookPayload, type EventTable } from "./events.js";
import { findUserEmail, hasEndpoints, queueDeliveries } from "./store.js";

// Every webhook worker of this process; a commit that queued deliveries kicks them all (each finds
// its own store's rows; a worker of another store finds nothing and stops).
const workers = new Set<{ kick(): void }>();

/** A worker joins while it runs, so commits kick it; returns the leave function. */
export function joinKickList(worker: { kick(): void }): () => void {
  workers.add(worker);
  return () => { workers.delete(worker); };
}

const kickAll = () => { for (const w of workers) w.kick(); };

/** Kicks this process's webhook workers once `tx` has committed. */
export function kickWorkersAfterCommit(tx: object): void {
  afterCommit(tx, kickAll);
}

/**
 * The event hook (store/events.ts) over the table of published events: turns an internal event into
 * its public payload and queues one delivery per subscribed endpoint in the event's own
 * transaction, so a rollback sends nothing and a commit cannot lose one. The workers are kicked
 * after the commit, never before it.
 */
export const webhookDeliveryHook = (table: EventTable) => (tx: Kysely<DB>, e: NewEvent) => queueWebhookDeliveries(table, tx, e);

async function queueWebhookDeliveries(table: EventTable, tx: Kysely<DB>, e: NewEvent): Promise<void> {
  const payload = toWebhookPayload(table, e);
  if (!payload) return;
  // No endpoint at all (most servers, most of the time): one indexed read instead of building the
  // payload and an INSERT … SELECT that opens every index of the delivery log to insert nothing.
  // Read in the event's transaction, so an endpoint committed before it is always seen.
  if (!(await hasEndpoints(tx))) return;
  if (payload.type === "user.created") {
    const id = typeof payload.data.recipeUserId === "string" ? payload.data.recipeUserId : e.userId;
    if (id) payload.data.email = await findUserEmail(tx, id);
  }
  const n = await queueDeliveries(tx, { messageId: `msg_${createId().replace(/-/g, "")}`, type: payload.type, payload: JSON.stringify(payload), at: e.at });
  if (n > 0) kickWorkersAfterCommit(tx);
}
