import { classifyOutage } from "../store/outage.js";
import type { Logger } from "../util/logger.js";

/**
 * Work that runs after the HTTP answer has gone out, so the answer's time cannot depend on it (a
 * reset request for a known address writes a token, an event and a mail; for an unknown one only
 * an event). Each job is still one transaction of its own with its mail in the outbox; a job that
 * fails is logged. The app drains the jobs in flight before it closes the database.
 */
export interface DeferredWork {
  /** Runs `job` on a later turn of the event loop (after the current response is written). */
  run(name: string, job: () => Promise<unknown>): void;
  /** Resolves once every job started so far (and any they started) has settled. */
  drain(): Promise<void>;
}

/** A tracker for after-the-answer jobs (one per app). */
export function createDeferredWork(logger: Logger): DeferredWork {
  const inflight = new Set<Promise<void>>();
  return {
    run(name, job) {
      // Two turns of setImmediate, not a microtask: h3 v1 itself writes the response in a
      // setImmediate queued after this handler returns, and on SQLite (a synchronous driver on the
      // event loop) a job started in the same turn would run its statements before that write, so a
      // known address would answer later than an unknown one. One more turn runs the job after it.
      const p: Promise<void> = new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)))
        .then(job)
        .then(() => {}, (err) => {
          // A database outage is logged once by the outage monitor: no stack per job here.
          const outage = classifyOutage(err);
          if (outage) logger.warn("deferred job failed: database unavailable", { job: name, reason: outage });
          else logger.error("deferred job failed", { job: name, err });
        })
        .finally(() => inflight.delete(p));
      inflight.add(p);
    },
    async drain() {
      while (inflight.size) await Promise.all([...inflight]);
    },
  };
}
