import { insertEvent } from "../store/events.js";
import type { OutageKind } from "../store/outage.js";
import { createQueueWorker, type QueueWorker } from "../store/queue-worker.js";
import type { Store } from "../store/database.js";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import { joinKickList } from "./queue.js";
import { sendWebhook } from "./sender.js";
import * as repo from "./store.js";
import { openEndpointSecret } from "./secrets.js";
import type { OutboundPolicy } from "../util/outbound-guard.js";

const SECOND = 1000;
/** Wait before attempt n+1: 30 s, 1, 2, 4 … minutes, at most an hour (about 9 hours over 15 attempts). */
export const webhookRetryDelayMs = (attempts: number) => Math.min(30 * SECOND * 2 ** Math.max(0, attempts - 1), 3_600_000);
/** Attempts of one delivery before it is marked failed (it can still be replayed from the log). */
export const WEBHOOK_MAX_ATTEMPTS = 15;
const KEEP_FINISHED_MS = 30 * 86_400_000;
/** Sends in flight at once in one process, and to one endpoint. */
export const WEBHOOK_CONCURRENCY = 32;
export const WEBHOOK_PER_ENDPOINT = 4;

export interface WebhookWorkerOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** How long an endpoint may take to answer (config.webhookTimeoutMs). */
  timeoutMs: number;
  /** Failed attempts in a row after which an endpoint is disabled (config.webhookFailureLimit). */
  failureLimit: number;
  /** The server secret (config.secret) that seals endpoint secrets at rest (secrets.ts). */
  serverSecret: string | undefined;
  /** Where deliveries may connect (targets.ts webhookTargetPolicy): checked on every attempt's resolved address. */
  targetPolicy: OutboundPolicy;
  maxAttempts?: number;
  pollMs?: number;
  noteOutage?: (kind: OutageKind, err: unknown) => void;
}

/**
 * Sends queued webhook deliveries on the leased queue worker the mail outbox uses
 * (store/queue-worker.ts): after commit, at least once, never twice at once across instances,
 * retried with backoff, picked up by any worker after a crash. Sends happen here, never in a request.
 * Each endpoint is sent to independently (at most WEBHOOK_PER_ENDPOINT at once, WEBHOOK_CONCURRENCY
 * in all); the deliveries of a disabled endpoint stay pending until it is enabled again.
 */
export function createWebhookWorker(o: WebhookWorkerOptions): QueueWorker {
  const maxAttempts = o.maxAttempts ?? WEBHOOK_MAX_ATTEMPTS;

  async function deliver(row: repo.DeliveryRow, owner: string): Promise<boolean> {
    const endpoint = await repo.findEndpoint(o.store.db, row.endpoint_id);
    if (!endpoint) {
      await o.store.writeTx((tx) => repo.recordAttempt(tx, row.id, owner, { now: o.clock.now(), status: "failed", httpStatus: null, error: "endpoint removed" }));
      return false;
    }
    if (endpoint.enabled !== 1) {
      // Disabled after the claim: the delivery waits, pending, for the endpoint to be enabled again.
      await o.store.writeTx((tx) => repo.releaseClaim(tx, row.id, owner));
      return false;
    }
    let secret: string;
    try {
      secret = openEndpointSecret(endpoint.secret, o.serverSecret, endpoint.id);
    } catch (err) {
      // Nothing can be signed until the operator restores the secret: retried with backoff, never sent unsigned.
      o.logger.error("webhook not sent", { id: row.id, endpoint: endpoint.id, error: (err as Error).message });
      await o.store.writeTx((tx) => repo.recordAttempt(tx, row.id, owner, { now: o.clock.now(), status: row.attempts >= maxAttempts ? "failed" : "pending", httpStatus: null, error: "endpoint secret unreadable", nextAttemptAt: o.clock.now() + webhookRetryDelayMs(row.attempts) }));
      return false;
    }
    const sent = await sendWebhook({ url: endpoint.url, secret, messageId: row.message_id, payload: row.payload, now: o.clock.now(), timeoutMs: o.timeoutMs, policy: o.targetPolicy });
    const now = o.clock.now();
    if (sent.ok) {
      await o.store.writeTx(async (tx) => {
        if (!(await repo.recordAttempt(tx, row.id, owner, { now, status: "delivered", httpStatus: sent.status, error: null }))) o.logger.warn("webhook delivered after its lease ran out", { id: row.id });
        await repo.resetFailureStreak(tx, endpoint.id);
      });
      o.logger.info("webhook delivered", { id: row.id, type: row.event_type, endpoint: endpoint.id, status: sent.status });
      return true;
    }
    const giveUp = row.attempts >= maxAttempts;
    const disabled = await o.store.writeTx(async (tx) => {
      await repo.recordAttempt(tx, row.id, owner, { now, status: giveUp ? "failed" : "pending", httpStatus: sent.status, error: sent.error, nextAttemptAt: now + webhookRetryDelayMs(row.attempts) });
      const streak = await repo.addFailure(tx, endpoint.id);
      if (!streak || streak.streak < o.failureLimit) return false;
      const reason = `${streak.streak} failed attempts in a row; last: ${sent.error}`;
      if (!(await repo.disableEndpoint(tx, endpoint.id, { now, reason }))) return false;
      // An event (audit log, and a webhook to the other endpoints that subscribe to it).
      await insertEvent(tx, { at: now, type: "webhook.endpoint_disabled", userId: null, data: { endpointId: endpoint.id, url: endpoint.url, failures: streak.streak, lastError: sent.error } });
      return true;
    });
    o.logger.warn(giveUp ? "webhook failed for good" : "webhook delivery failed; will retry", { id: row.id, type: row.event_type, endpoint: endpoint.id, attempts: row.attempts, status: sent.status, error: sent.error });
    if (disabled) o.logger.error("webhook endpoint disabled after a failure streak", { endpoint: endpoint.id, failures: o.failureLimit });
    return false;
  }

  const worker = createQueueWorker<repo.DeliveryRow>({
    store: o.store, clock: o.clock, logger: o.logger, table: "webhook_deliveries", label: "webhook", deliver,
    pollMs: o.pollMs, noteOutage: o.noteOutage,
    // Each endpoint is a lane of its own: a slow one holds at most its own sends, never another's.
    batchSize: WEBHOOK_CONCURRENCY,
    lanes: { of: (row) => row.endpoint_id, limit: WEBHOOK_PER_ENDPOINT, only: repo.sendableNow },
    housekeeping: async (now) => { await o.store.writeTx((tx) => repo.deleteFinishedDeliveries(tx, now - KEEP_FINISHED_MS)); },
  });
  let leave: (() => void) | undefined;
  return {
    kick: worker.kick,
    runOnce: worker.runOnce,
    start: () => { leave ??= joinKickList(worker); worker.start(); },
    stop: async () => { leave?.(); await worker.stop(); },
  };
}
