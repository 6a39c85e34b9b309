import type { Store } from "./database.js";
import { claimDueRows, renewRowLeases, type LeasedRow, type QueueTable } from "./leased-queue.js";
import { classifyOutage, type OutageKind } from "./outage.js";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import { createId } from "../util/random.js";

/**
 * A claim is short and kept alive by a heartbeat while the send is in progress, so a slow relay or
 * endpoint keeps its row but a worker that died (SIGKILL, power cut) lets go within the lease. With the
 * poll below, another worker retries a dead worker's row within lease + poll = 25 s of its death.
 */
export const QUEUE_LEASE_MS = 15_000;
export const QUEUE_HEARTBEAT_MS = 5_000;
export const QUEUE_POLL_MS = 10_000;

export interface QueueWorkerOptions<Row extends LeasedRow> {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** The table whose due rows this worker sends. */
  table: QueueTable;
  /** What the rows are, for log lines ("mail", "webhook"). */
  label: string;
  /** Sends one claimed row and records the outcome; true when it went out. */
  deliver(row: Row, owner: string): Promise<boolean>;
  /** Runs after a pass at most once an hour (deleting finished rows). */
  housekeeping?(now: number): Promise<void>;
  /** Identifies this worker's leases; unique per process by default. */
  owner?: string;
  leaseMs?: number;
  heartbeatMs?: number;
  /** Backstop poll interval (deliveries normally start on kick()); also how soon an expired lease is noticed. */
  pollMs?: number;
  batchSize?: number;
  /** Hears a pass that failed because the database is away (logged once per outage there, not per pass). */
  noteOutage?: (kind: OutageKind, err: unknown) => void;
}

export interface QueueWorker {
  /** Starts a delivery pass soon (called right after a commit that queued rows). */
  kick(): void;
  /** One full pass: sends every due row; resolves with the counts. */
  runOnce(): Promise<{ sent: number; failed: number }>;
  start(): void;
  /** Stops polling and claiming, and waits for the deliveries in flight; the rest stays queued for the next start. */
  stop(): Promise<void>;
}

/**
 * Sends the due rows of a queue table after commit. A row is claimed with a lease (FOR UPDATE SKIP
 * LOCKED on PostgreSQL), so instances sharing a database never send it twice at once; the lease is
 * short and renewed by a heartbeat while sending, so if a worker dies mid-delivery its lease runs
 * out within the lease time and another worker makes another attempt (at least once, never lost).
 * The mail outbox and the webhook deliveries both run on it.
 */
export function createQueueWorker<Row extends LeasedRow>(o: QueueWorkerOptions<Row>): QueueWorker {
  const owner = o.owner ?? `worker-${createId()}`;
  const leaseMs = o.leaseMs ?? QUEUE_LEASE_MS;
  const heartbeatMs = o.heartbeatMs ?? QUEUE_HEARTBEAT_MS;
  let timer: NodeJS.Timeout | undefined;
  const inflight = new Set<Promise<unknown>>();
  let looping = false;
  let again = false;
  let stopped = false;
  let lastHousekeeping = 0;

  // While a batch is being sent, its leases are renewed; rows already finished are skipped by the
  // store (their lease_owner is cleared). A failed renewal is only logged: at worst the lease runs
  // out and another worker sends a duplicate with the same id.
  function startHeartbeat(ids: string[]): NodeJS.Timeout {
    const t = setInterval(() => {
      o.store.writeTx((tx) => renewRowLeases(tx, o.table, owner, ids, o.clock.now() + leaseMs))
        .catch((err) => o.logger.warn(`${o.label} lease renewal failed`, { err }));
    }, heartbeatMs);
    t.unref();
    return t;
  }

  async function pass(): Promise<{ sent: number; failed: number }> {
    let sent = 0;
    let failed = 0;
    // Once stopped, no new batch is claimed: shutdown waits for the sends in flight, not for the
    // whole queue (a slow endpoint and a long queue held SIGTERM for minutes); the rest stays queued.
    while (!stopped) {
      const now = o.clock.now();
      const batch = await o.store.writeTx((tx) => claimDueRows<Row>(tx, o.store.dialect, o.table, { now, owner, leaseUntil: now + leaseMs, limit: o.batchSize ?? 10 }));
      if (batch.length === 0) break;
      const heartbeat = startHeartbeat(batch.map((row) => row.id));
      const results = await Promise.all(batch.map((row) => o.deliver(row, owner).catch((err) => {
        o.logger.error(`${o.label} delivery bookkeeping failed`, { id: row.id, err });
        return false;
      }))).finally(() => clearInterval(heartbeat));
      for (const ok of results) if (ok) sent++; else failed++;
    }
    if (o.housekeeping && o.clock.now() - lastHousekeeping > 3_600_000) {
      lastHousekeeping = o.clock.now();
      await o.housekeeping(lastHousekeeping);
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
        else o.logger.warn(`${o.label} queue pass failed`, { err });
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
      timer = setInterval(loop, o.pollMs ?? QUEUE_POLL_MS);
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
