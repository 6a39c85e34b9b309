import type { Store } from "../store/database.js";
import * as outbox from "../store/outbox.js";
import type { OutageKind } from "../store/outage.js";
import { createQueueWorker, QUEUE_HEARTBEAT_MS, QUEUE_LEASE_MS, QUEUE_POLL_MS, type QueueWorker } from "../store/queue-worker.js";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import type { MailTransport } from "./transport.js";

export interface OutboxWorkerOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  transport: MailTransport;
  /** The fixed From header (config.mailFrom). */
  from: string;
  /** Identifies this worker's leases; unique per process by default. */
  owner?: string;
  /** How long a claim lasts without a heartbeat (OUTBOX_LEASE_MS). */
  leaseMs?: number;
  /** How often a worker renews the leases of the messages it is sending (OUTBOX_HEARTBEAT_MS). */
  heartbeatMs?: number;
  /** Backstop poll interval (deliveries normally start on kick()); also how soon an expired lease is noticed. */
  pollMs?: number;
  batchSize?: number;
  /** Attempts before a message is marked failed for good. */
  maxAttempts?: number;
  /** Hears a pass that failed because the database is away (logged once per outage there, not per pass). */
  noteOutage?: (kind: OutageKind, err: unknown) => void;
}

/** One delivery pass at a time per worker; kick() after a commit that queued mail (store/queue-worker.ts). */
export type OutboxWorker = QueueWorker;

const MINUTE = 60_000;
/** The leased queue's timings (store/queue-worker.ts), under the names the mail tests know. */
export const OUTBOX_LEASE_MS = QUEUE_LEASE_MS;
export const OUTBOX_HEARTBEAT_MS = QUEUE_HEARTBEAT_MS;
export const OUTBOX_POLL_MS = QUEUE_POLL_MS;
/** Wait before attempt n+1: 1, 2, 4 … minutes, at most an hour. */
export const retryDelayMs = (attempts: number) => Math.min(MINUTE * 2 ** Math.max(0, attempts - 1), 60 * MINUTE);
const KEEP_FINISHED_MS = 7 * 86_400_000;

/**
 * Delivers queued mail after commit, on the leased queue worker (store/queue-worker.ts): instances
 * sharing a database never send a message twice at once, and a worker that died mid-delivery lets
 * another make another attempt with the same Message-ID. Failures are recorded with the relay's
 * reply and retried with exponential backoff; a sent message's bodies are scrubbed.
 */
export function createOutboxWorker(o: OutboxWorkerOptions): OutboxWorker {
  const maxAttempts = o.maxAttempts ?? 10;

  async function deliver(row: outbox.OutboxRow, owner: string): Promise<boolean> {
    const messageId = row.message_id ?? `<${row.id}@authsvc>`;
    let response: string | undefined;
    let error: string | undefined;
    try {
      response = await o.transport.send({
        from: o.from,
        to: row.to_address,
        subject: row.subject,
        text: row.text_body ?? "",
        html: row.html_body ?? undefined,
        messageId,
        headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : undefined,
      });
    } catch (err) {
      error = (err as Error).message;
    }
    const now = o.clock.now();
    if (response !== undefined) {
      const ok = await o.store.writeTx((tx) => outbox.markMessageSent(tx, row.id, owner, { now, response: response! }));
      if (!ok) o.logger.warn("mail sent after its lease ran out", { id: row.id });
      o.logger.info("mail sent", { id: row.id, kind: row.kind, response });
      return true;
    }
    const giveUp = row.attempts >= maxAttempts;
    await o.store.writeTx((tx) => outbox.markMessageFailed(tx, row.id, owner, { error: error!, nextAttemptAt: now + retryDelayMs(row.attempts), giveUp }));
    o.logger.warn(giveUp ? "mail failed for good" : "mail delivery failed; will retry", { id: row.id, kind: row.kind, attempts: row.attempts, error });
    return false;
  }

  return createQueueWorker<outbox.OutboxRow>({
    store: o.store, clock: o.clock, logger: o.logger, table: "mail_outbox", label: "mail", deliver,
    owner: o.owner, leaseMs: o.leaseMs, heartbeatMs: o.heartbeatMs, pollMs: o.pollMs, batchSize: o.batchSize, noteOutage: o.noteOutage,
    housekeeping: async (now) => { await o.store.writeTx((tx) => outbox.deleteFinishedMessages(tx, now - KEEP_FINISHED_MS)); },
  });
}
