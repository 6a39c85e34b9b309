import type { Store } from "../store/database.js";
import * as outbox from "../store/outbox.js";
import { classifyOutage, type OutageKind } from "../store/outage.js";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import { createId } from "../util/random.js";
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

export interface OutboxWorker {
  /** Starts a delivery pass soon (called by core right after a commit that queued mail). */
  kick(): void;
  /** One full pass: sends every due message; resolves with the counts. */
  runOnce(): Promise<{ sent: number; failed: number }>;
  start(): void;
  /** Stops polling and waits for the deliveries in flight (graceful shutdown drains the outbox). */
  stop(): Promise<void>;
}

const MINUTE = 60_000;
/**
 * A claim is short and kept alive by a heartbeat while the send is in progress, so a slow relay
 * keeps its message but a worker that died (SIGKILL, power cut) lets go within the lease. With the
 * poll below, another worker retries a dead worker's mail within lease + poll = 25 s of its death.
 */
export const OUTBOX_LEASE_MS = 15_000;
export const OUTBOX_HEARTBEAT_MS = 5_000;
export const OUTBOX_POLL_MS = 10_000;
/** Wait before attempt n+1: 1, 2, 4 … minutes, at most an hour. */
export const retryDelayMs = (attempts: number) => Math.min(MINUTE * 2 ** Math.max(0, attempts - 1), 60 * MINUTE);
const KEEP_FINISHED_MS = 7 * 86_400_000;

/**
 * Delivers queued mail after commit. A message is claimed with a lease (FOR UPDATE SKIP LOCKED on
 * PostgreSQL), so instances sharing a database never send it twice; the lease is short and renewed
 * by a heartbeat while sending, so if a worker dies mid-delivery its lease runs out within
 * OUTBOX_LEASE_MS and another worker makes another attempt with the same Message-ID. Failures are recorded
 * with the relay's reply and retried with exponential backoff; a sent message's bodies are scrubbed.
 */
export function createOutboxWorker(o: OutboxWorkerOptions): OutboxWorker {
  const owner = o.owner ?? `worker-${createId()}`;
  const leaseMs = o.leaseMs ?? OUTBOX_LEASE_MS;
  const heartbeatMs = o.heartbeatMs ?? OUTBOX_HEARTBEAT_MS;
  const maxAttempts = o.maxAttempts ?? 10;
  let timer: NodeJS.Timeout | undefined;
  const inflight = new Set<Promise<unknown>>();
  let looping = false;
  let again = false;
  let stopped = false;
  let lastPurge = 0;

  async function deliver(row: outbox.OutboxRow): Promise<boolean> {
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

  // While a batch is being sent, its leases are renewed; rows already finished are skipped by the
  // store (their lease_owner is cleared). A failed renewal is only logged: at worst the lease runs
  // out and another worker sends a duplicate with the same Message-ID.
  function startHeartbeat(ids: string[]): NodeJS.Timeout {
    const timer = setInterval(() => {
      o.store.writeTx((tx) => outbox.renewLeases(tx, owner, ids, o.clock.now() + leaseMs))
        .catch((err) => o.logger.warn("mail lease renewal failed", { err }));
    }, heartbeatMs);
    timer.unref();
    return timer;
  }

  async function pass(): Promise<{ sent: number; failed: number }> {
    let sent = 0;
    let failed = 0;
    for (;;) {
      const now = o.clock.now();
      const batch = await o.store.writeTx((tx) => outbox.claimDueMessages(tx, o.store.dialect, { now, owner, leaseUntil: now + leaseMs, limit: o.batchSize ?? 10 }));
      if (batch.length === 0) break;
      const heartbeat = startHeartbeat(batch.map((row) => row.id));
      const results = await Promise.all(batch.map((row) => deliver(row).catch((err) => {
        o.logger.error("mail delivery bookkeeping failed", { id: row.id, err });
        return false;
      }))).finally(() => clearInterval(heartbeat));
      for (const ok of results) if (ok) sent++; else failed++;
    }
    if (o.clock.now() - lastPurge > 3_600_000) {
      lastPurge = o.clock.now();
      await o.store.writeTx((tx) => outbox.deleteFinishedMessages(tx, lastPurge - KEEP_FINISHED_MS));
    }
    return { sent, failed };
  }

  function track<T>(p: Promise<T>): Promise<T> {
    const settled = p.then(() => {}, () => {});
    inflight.add(settled);
    void settled.then(() => inflight.delete(settled));
    return p;
  }

  // Kicks coalesce: while a pass runs, further kicks schedule exactly one more pass after it.
  function loop(): void {
    if (stopped) return;
    if (looping) { again = true; return; }
    looping = true;
    void track(pass()
      .catch((err) => {
        const outage = o.noteOutage && classifyOutage(err);
        if (outage) o.noteOutage!(outage, err);
        else o.logger.warn("mail outbox pass failed", { err });
      })
      .finally(() => {
        looping = false;
        if (again) { again = false; loop(); }
      }));
  }

  return {
    kick: () => { if (!stopped) setImmediate(loop); },
    runOnce: () => track(pass()),
    start: () => {
      if (timer || stopped) return;
      timer = setInterval(loop, o.pollMs ?? OUTBOX_POLL_MS);
      timer.unref();
      loop();
    },
    stop: async () => {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      while (inflight.size) await Promise.all([...inflight]);
    },
  };
}
