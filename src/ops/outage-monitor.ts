import type { OutageKind } from "../store/outage.js";
import type { StoreProblem } from "../store/health.js";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import type { MetricsSink } from "../util/metrics.js";

/** One database outage: what kind, since when, how many requests and jobs it has failed so far. */
export interface Outage { kind: OutageKind; since: number; failures: number }

export interface OutageMonitor {
  /** A request or job failed because of an outage of this kind. The first one starts the outage. */
  noteFailure(kind: OutageKind, err?: unknown): void;
  /** The outage going on, if any. */
  current(): Outage | undefined;
  /** Stops probing (shutdown). */
  close(): void;
}

/**
 * Turns a stream of failed requests into one outage with a start and an end, so an operator reads
 * two log lines per database restart instead of a stack per request. While an outage lasts the
 * store is probed (store/health.ts) every `probeEveryMs`; the outage ends at the first good probe
 * that comes with no failure in the last two intervals (a disk with a little space back can still
 * fail the next write: end it only once writes stop failing). Requests are never held back by it:
 * each one tries the database itself, so service resumes as soon as the database is back.
 */
export function createOutageMonitor(deps: { probe: () => Promise<StoreProblem | undefined>; clock: Clock; logger: Logger; metrics: MetricsSink; probeEveryMs?: number }): OutageMonitor {
  const every = deps.probeEveryMs ?? 250;
  let outage: Outage | undefined;
  let lastFailure = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const schedule = () => {
    if (closed || timer) return;
    timer = setTimeout(() => { timer = undefined; void probe(); }, every);
    timer.unref();
  };
  const probe = async () => {
    const problem = await deps.probe().catch((err: Error) => ({ kind: "unreachable" as const, detail: err.message }));
    if (!outage) return;
    const now = deps.clock.now();
    if (problem || now - lastFailure < 2 * every) return schedule();
    const ended = outage;
    outage = undefined;
    deps.metrics.databaseOutage(ended.kind, false);
    deps.logger.info("database outage ended", { reason: ended.kind, since: new Date(ended.since).toISOString(), durationMs: now - ended.since, failures: ended.failures });
  };

  return {
    noteFailure: (kind, err) => {
      lastFailure = deps.clock.now();
      if (outage) {
        outage.failures++;
        return;
      }
      outage = { kind, since: lastFailure, failures: 1 };
      deps.metrics.databaseOutage(kind, true);
      // The first error's message says what happened; its stack would say nothing more.
      deps.logger.warn("database outage began", { reason: kind, error: err instanceof Error ? err.message : undefined });
      schedule();
    },
    current: () => outage,
    close: () => {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
