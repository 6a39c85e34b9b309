import type { Worker } from "node:cluster";
import type { App } from "../app.js";
import type { Readiness } from "../http/deps.js";

/**
 * /readyz for the whole server under `serve --workers N` (cli/serve-cluster.ts). A load balancer or
 * orchestrator sees one port, so one worker answering "I am fine" would say nothing about the
 * server. A worker's /readyz therefore first checks itself (draining? its own database probe), then
 * asks the primary, which answers with its view of the whole server:
 * - its own readiness (database reachable and writable, migrations applied, not shutting down): the
 *   run-once duties (outbox, purge, backups) work through it, so a primary that cannot reach the
 *   database makes the server not ready;
 * - each worker's own readiness, asked over IPC with a deadline: a worker that is still starting,
 *   draining, dead, or too busy to answer within READY_TIMEOUT_MS does not count.
 * The server is ready when the primary is and at least one worker is: a worker being replaced
 * leaves the others serving, and the JSON says how many of how many (`workers: {ready, total}`).
 *
 * Every /readyz costs one database probe per process: probes come every few seconds, not per request.
 */
export type ReadinessMessage =
  | { authsvc: "readiness-request"; id: number }
  | { authsvc: "readiness-answer"; id: number; state: Readiness }
  | { authsvc: "readiness-collect"; id: number }
  | { authsvc: "readiness-part"; id: number; ready: boolean };

/** How long the primary waits for a worker's own answer before counting it not ready. */
export const READY_TIMEOUT_MS = 1_000;
/** How long a worker waits for the primary's view (which includes READY_TIMEOUT_MS). */
const PRIMARY_TIMEOUT_MS = 3_000;

type Send = (m: ReadinessMessage) => void;

/**
 * The worker's side: `ask` gives createApp the whole server's readiness (from the primary), and
 * `onMessage` answers the primary's collection with this worker's own readiness and takes the
 * primary's answers. `own` is bound once the app exists.
 */
export function createWorkerReadiness(send: Send): { ask: () => Promise<Readiness>; onMessage: (m: ReadinessMessage, own: (() => Promise<Readiness>) | undefined) => void } {
  let nextId = 1;
  const waiting = new Map<number, (state: Readiness) => void>();
  return {
    ask: () => new Promise((resolve) => {
      const id = nextId++;
      const timer = setTimeout(() => { waiting.delete(id); resolve({ ready: false, reason: "the primary process did not answer" }); }, PRIMARY_TIMEOUT_MS);
      waiting.set(id, (state) => { clearTimeout(timer); resolve(state); });
      send({ authsvc: "readiness-request", id });
    }),
    onMessage: (m, own) => {
      if (m.authsvc === "readiness-answer") { waiting.get(m.id)?.(m.state); waiting.delete(m.id); }
      else if (m.authsvc === "readiness-collect") {
        // A worker whose app is not built yet is starting: not ready.
        (own ? own() : Promise.resolve({ ready: false })).then(
          (s) => send({ authsvc: "readiness-part", id: m.id, ready: s.ready }),
          () => send({ authsvc: "readiness-part", id: m.id, ready: false }),
        );
      }
    },
  };
}

/**
 * The primary's side: `view()` is the whole server's readiness; `onMessage` answers a worker's
 * request with it and gathers the workers' parts; `forget` drops a worker that exited from any
 * collection under way.
 */
export function createServerReadiness(opts: { app: App; total: number; workers: () => Worker[] }): {
  view: () => Promise<Readiness>;
  onMessage: (worker: Worker, m: ReadinessMessage) => void;
  forget: (worker: Worker) => void;
} {
  const { app, total } = opts;
  let nextId = 1;
  const asked = new Map<number, { waiting: Set<Worker>; ready: number; done: () => void }>();

  const countReady = (): Promise<number> => new Promise((resolve) => {
    const workers = opts.workers();
    const id = nextId++;
    const entry = { waiting: new Set(workers), ready: 0, done: () => {} };
    if (!entry.waiting.size) return resolve(0);
    const timer = setTimeout(() => entry.done(), READY_TIMEOUT_MS);
    entry.done = () => { clearTimeout(timer); asked.delete(id); resolve(entry.ready); };
    asked.set(id, entry);
    for (const w of workers) w.send({ authsvc: "readiness-collect", id } satisfies ReadinessMessage, undefined, () => {});
  });

  const view = async (): Promise<Readiness> => {
    const [own, ready] = await Promise.all([app.ops.readiness(), countReady()]);
    const workers = { ready, total };
    if (!own.ready) return { ...own, workers };
    if (!ready) return { ready: false, reason: "no HTTP worker is ready", workers };
    return { ready: true, workers };
  };

  return {
    view,
    onMessage: (worker, m) => {
      if (m.authsvc === "readiness-request") {
        view().then(
          (state) => { if (worker.isConnected()) worker.send({ authsvc: "readiness-answer", id: m.id, state } satisfies ReadinessMessage, undefined, () => {}); },
          () => { if (worker.isConnected()) worker.send({ authsvc: "readiness-answer", id: m.id, state: { ready: false, reason: "the primary process could not check readiness" } } satisfies ReadinessMessage, undefined, () => {}); },
        );
      } else if (m.authsvc === "readiness-part") {
        const entry = asked.get(m.id);
        if (!entry || !entry.waiting.delete(worker)) return;
        if (m.ready) entry.ready++;
        if (!entry.waiting.size) entry.done();
      }
    },
    forget: (worker) => {
      for (const entry of asked.values()) if (entry.waiting.delete(worker) && !entry.waiting.size) entry.done();
    },
  };
}
