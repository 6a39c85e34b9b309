import type { Expression, SqlBool } from "kysely";
import type { Store } from "./database.js";
import { claimDueRows, releaseRows, renewRowLeases, type LeasedRow, type QueueTable } from "./leased-queue.js";
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
  /** Deliveries in flight at once (10 by default). */
  batchSize?: number;
  /**
   * Independent lanes (webhooks: one per endpoint): at most `limit` rows of one lane in flight, so
   * a slow lane never holds the others back. `only(fullLanes)` is the claim's condition that skips
   * the rows of full lanes (and any the queue must not send now). Without lanes the queue is one lane.
   */
  lanes?: { of(row: Row): string; limit: number; only(fullLanes: string[]): Expression<SqlBool> };
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
  // A pass waiting for its sends is woken by a kick: rows queued meanwhile go out at once.
  let wakePass: (() => void) | undefined;

  // While rows are being sent, their leases are renewed; rows already finished are skipped by the
  // store (their lease_owner is cleared). A failed renewal is only logged: at worst the lease runs
  // out and another worker sends a duplicate with the same id.
  function startHeartbeat(ids: () => string[]): NodeJS.Timeout {
    const t = setInterval(() => {
      o.store.writeTx((tx) => renewRowLeases(tx, o.table, owner, ids(), o.clock.now() + leaseMs))
        .catch((err) => o.logger.warn(`${o.label} lease renewal failed`, { err }));
    }, heartbeatMs);
    t.unref();
    return t;
  }

  /**
   * Sends every due row: claims as many as there are free places (within each lane's limit),
   * and claims again as soon as any send ends or a kick says rows were queued, so no send waits
   * for another one to finish (a slow endpoint holds only its own lane).
   */
  async function pass(): Promise<{ sent: number; failed: number }> {
    let sent = 0;
    let failed = 0;
    const concurrency = o.batchSize ?? 10;
    const running = new Map<string, { lane: string; done: Promise<void> }>();
    const inLane = new Map<string, number>();
    const heartbeat = startHeartbeat(() => [...running.keys()]);
    try {
      // Once stopped, nothing new is claimed: shutdown waits for the sends in flight, not for the
      // whole queue (a slow endpoint and a long queue held SIGTERM for minutes); the rest stays queued.
      while (!stopped) {
        const free = concurrency - running.size;
        let claimed = 0;
        let want = 0;
        if (free > 0) {
          const now = o.clock.now();
          const full = o.lanes ? [...inLane].filter(([, n]) => n >= o.lanes!.limit).map(([lane]) => lane) : [];
          want = o.lanes ? Math.min(free, o.lanes.limit) : free;
          const rows = await o.store.writeTx((tx) => claimDueRows<Row>(tx, o.store.dialect, o.table, { now, owner, leaseUntil: now + leaseMs, limit: want, only: o.lanes?.only(full) }));
          claimed = rows.length;
          // One claim may take more rows of a lane than it has room for: those go back untried.
          const over = o.lanes ? rows.filter((row) => {
            const lane = o.lanes!.of(row);
            if ((inLane.get(lane) ?? 0) >= o.lanes!.limit) return true;
            inLane.set(lane, (inLane.get(lane) ?? 0) + 1);
            return false;
          }) : [];
          if (over.length) await o.store.writeTx((tx) => releaseRows(tx, o.table, owner, over.map((row) => row.id)));
          for (const row of rows) {
            if (over.includes(row)) continue;
            const lane = o.lanes?.of(row) ?? "";
            if (!o.lanes) inLane.set(lane, (inLane.get(lane) ?? 0) + 1);
            const done = o.deliver(row, owner)
              .catch((err) => { o.logger.error(`${o.label} delivery bookkeeping failed`, { id: row.id, err }); return false; })
              .then((ok) => {
                if (ok) sent++; else failed++;
                running.delete(row.id);
                const left = (inLane.get(lane) ?? 1) - 1;
                if (left) inLane.set(lane, left); else inLane.delete(lane);
              });
            running.set(row.id, { lane, done });
          }
        }
        // Every free place taken: claim again at once. Otherwise wait for a send to end or a kick.
        if (free > 0 && claimed === want && claimed > 0) continue;
        if (!running.size) break;
        await Promise.race([...[...running.values()].map((r) => r.done), new Promise<void>((wake) => { wakePass = wake; })]);
        wakePass = undefined;
      }
      await Promise.all([...running.values()].map((r) => r.done));
    } finally {
      clearInterval(heartbeat);
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
    kick: () => { if (!stopped) setImmediate(() => { if (wakePass) wakePass(); else loop(); }); },
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
