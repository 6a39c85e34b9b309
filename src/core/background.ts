import type { EventHook } from "../store/events.js";
import type { OutageKind } from "../store/outage.js";
import type { CoreContext } from "./context.js";

/**
 * A room's background work (Room.background): rows its commits queue and a worker sends after the
 * commit. The composition root (app.ts) registers its event hook, starts its worker in every process
 * that runs background work (app.start with run-once roles) and stops it on close; a cluster's HTTP
 * worker runs none and forwards its commits' kicks to the primary (cli/cluster-worker.ts), where
 * they kick the running worker. The kernel loops over the rooms' declarations and never names one.
 */
export interface BackgroundWork {
  /** Names the work: its event hook, `app.background`'s key and the cluster's kick message. */
  id: string;
  /** Work that commits with every event, in the event's own transaction (store/events.ts setEventHook). */
  eventHook?: EventHook;
  /**
   * What it does at start, before its worker starts, given the run-once roles of this process
   * (ops/run-once.ts): e.g. what only the process with the "outbox" role does once.
   */
  prepare?(ctx: CoreContext, run: { roles: readonly string[] }): Promise<void>;
  /** Its worker over this app (not started): the one app.start runs, or a one-off for a pass on demand. */
  worker(ctx: CoreContext, run: { noteOutage(kind: OutageKind, err: unknown): void }): BackgroundWorker;
  /**
   * Where this process's commits that queued its work say so, besides its own running workers:
   * adds `kick` to the list and returns the function that removes it. A cluster's HTTP worker
   * passes a kick that goes to the primary.
   */
  forwardKicks(kick: () => void): () => void;
}

/** A background worker (store/queue-worker.ts has this shape). */
export interface BackgroundWorker {
  start(): void;
  /** Starts a pass soon (a commit queued work). */
  kick(): void;
  /** One full pass now; resolves with its counts. */
  runOnce(): Promise<{ sent: number; failed: number }>;
  /** Stops, and waits for the work in flight; the rest stays queued for the next start. */
  stop(): Promise<void>;
}

/** The rooms' background work, when no two share an id (an id twice is a programming error). */
export function checkBackground(works: readonly BackgroundWork[]): readonly BackgroundWork[] {
  const ids = new Set<string>();
  for (const w of works) {
    if (ids.has(w.id)) throw new Error(`background work ${w.id} is declared twice`);
    ids.add(w.id);
  }
  return works;
}
