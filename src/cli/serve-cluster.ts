import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry } from "prom-client";
import type { App } from "../app.js";
import type { Config } from "../config.js";
import { isPostgresUrl, sqliteFilePath } from "../store/database.js";
import { isSingleExecutable } from "../native/addons.js";
import type { Logger } from "../util/logger.js";
import { createServerReadiness, type ReadinessMessage } from "./cluster-readiness.js";

/**
 * `serve --workers N` (N > 1) on node:cluster, the primary's side (the workers': cli/cluster-worker.ts): the primary process opens the database, applies the
 * migrations and runs what must run once (ops/run-once.ts: mail catcher, outbox worker, purge,
 * backups, metrics listener), then forks N HTTP workers that share the port. Each worker is a full
 * app over the same database with the same listener stack (http/server.ts); nothing a request
 * relies on lives in a worker's memory alone (rate-limit counters, sessions and revocations are
 * rows; the signing keys are read from the table), so a request to any worker sees the others'
 * writes at once.
 *
 * Between primary and workers, over the cluster's IPC channel:
 * - a worker's commit that queued mail kicks the primary's outbox worker ("outbox-kick");
 * - /metrics on any worker, or the --metrics-port listener, answers for the whole server: the
 *   primary collects every worker's registry and its own and sums them (prom-client's
 *   AggregatorRegistry; gauges of shared state take the max);
 * - SIGTERM or SIGINT reach the primary, which tells every worker to drain ("shutdown"): each
 *   fails /readyz, serves what already arrived, finishes its in-flight requests and exits; then
 *   the primary stops the run-once work and exits. Workers ignore signals of their own (a Ctrl-C
 *   reaches the whole process group) and drain as well when the primary disappears.
 * - /readyz on any worker answers for the whole server: the primary's own readiness and how many
 *   workers are ready (cli/cluster-readiness.ts);
 * - a worker that dies any other way is logged and replaced.
 */
export type ClusterMessage =
  | { authsvc: "outbox-kick" }
  | { authsvc: "shutdown" }
  | { authsvc: "metrics-request"; id: number }
  | { authsvc: "metrics-answer"; id: number; contentType: string; body: string }
  | { authsvc: "metrics-collect"; id: number }
  | { authsvc: "metrics-part"; id: number; json: unknown[] }
  | ReadinessMessage;

/** The environment variable that tells a worker which port the cluster listens on (the primary picks it for --port 0). */
export const PORT_ENV = "__AUTHSVC_CLUSTER_PORT";
export const METRICS_TIMEOUT_MS = 2_000;

/**
 * The argument a single executable's worker is started with. node:cluster forks
 * `process.execPath <exec> <args…>`, where `exec` is the script to run; a single executable has no
 * script, and Node puts the executable's own path at argv[1] of every run of it. So the primary
 * names this marker as the script, and the worker drops it (clusterWorkerArgv) before parsing.
 */
export const SEA_WORKER_ARG = "authsvc-cluster-worker";

/** The command line of this process as the CLI should read it (without the single executable's worker marker). */
export function clusterWorkerArgv(argv: string[]): string[] {
  return cluster.isWorker && argv[2] === SEA_WORKER_ARG ? [argv[0], argv[1], ...argv.slice(3)] : argv;
}

export function isClusterWorker(): boolean {
  return cluster.isWorker;
}

export const isMessage = (m: unknown): m is ClusterMessage => typeof m === "object" && m !== null && typeof (m as { authsvc?: unknown }).authsvc === "string";

/** Whether --workers can apply: an in-memory SQLite database is private to its process. */
export function canCluster(config: Readonly<Config>): boolean {
  return config.workers > 1 && !(!isPostgresUrl(config.database) && sqliteFilePath(config.database) === ":memory:");
}

export interface Cluster {
  /** The port every worker listens on. */
  port: number;
  /** Drains every worker (SIGTERM path); resolves true when any worker had to cut requests off or failed. */
  stop(deadlineMs: number): Promise<boolean>;
  /** The /metrics text of the whole server: every worker's figures and the primary's, summed. */
  metrics(): Promise<{ contentType: string; body: string }>;
}

/**
 * The primary: forks `count` workers (the first alone, so that with --port 0 the others listen on
 * the port it got), relays their messages, replaces a worker that dies, and drains them on stop.
 * Rejects when the first worker cannot start (it has printed why).
 */
export async function startCluster(opts: { app: App; config: Readonly<Config>; count: number; logger: Logger }): Promise<Cluster> {
  const { app, config, count, logger } = opts;
  let stopping = false;
  let port = config.port;
  const started = new Map<Worker, number>();
  const metricsAsked = new Map<number, { parts: unknown[][]; waiting: Set<Worker>; done: () => void }>();
  let nextCollect = 1;

  const aggregate = async (): Promise<{ contentType: string; body: string }> => {
    const id = nextCollect++;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w.isConnected());
    const parts: unknown[][] = [await app.ops.metricsJson()];
    await new Promise<void>((done) => {
      const waiting = new Set(workers);
      if (!waiting.size) return done();
      const timer = setTimeout(() => { metricsAsked.delete(id); done(); }, METRICS_TIMEOUT_MS);
      metricsAsked.set(id, { parts, waiting, done: () => { clearTimeout(timer); metricsAsked.delete(id); done(); } });
      for (const w of workers) w.send({ authsvc: "metrics-collect", id } satisfies ClusterMessage, undefined, () => {});
    });
    const registry = AggregatorRegistry.aggregate(parts.filter((p) => p.length) as Parameters<typeof AggregatorRegistry.aggregate>[0]);
    return { contentType: registry.contentType, body: await registry.metrics() };
  };

  const listeningWorkers = new WeakSet<Worker>();
  const readiness = createServerReadiness({
    app, total: count,
    workers: () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w.isConnected() && listeningWorkers.has(w)),
  });

  const onMessage = (worker: Worker, m: unknown) => {
    if (!isMessage(m)) return;
    if (m.authsvc === "readiness-request" || m.authsvc === "readiness-part") readiness.onMessage(worker, m);
    else if (m.authsvc === "outbox-kick") app.ctx.outboxNotify?.();
    else if (m.authsvc === "metrics-request") {
      aggregate().then(
        (a) => { if (worker.isConnected()) worker.send({ authsvc: "metrics-answer", id: m.id, ...a } satisfies ClusterMessage, undefined, () => {}); },
        (err) => logger.error("metrics aggregation failed", { err }),
      );
    } else if (m.authsvc === "metrics-part") {
      const asked = metricsAsked.get(m.id);
      if (!asked) return;
      asked.parts.push(m.json);
      asked.waiting.delete(worker);
      if (!asked.waiting.size) asked.done();
    }
  };
  cluster.on("message", onMessage);

  const fork = (): Worker => {
    const w = cluster.fork({ [PORT_ENV]: String(port) });
    started.set(w, Date.now());
    w.once("listening", () => listeningWorkers.add(w));
    return w;
  };

  const listening = (w: Worker) => new Promise<number>((resolve, reject) => {
    const onListening = (address: { port: number }) => { w.off("exit", onExit); resolve(address.port); };
    const onExit = (code: number | null, signal: string | null) => { w.off("listening", onListening); reject(new Error(`an HTTP worker exited before listening (${signal ?? `code ${code}`})`)); };
    w.once("listening", onListening);
    w.once("exit", onExit);
  });

  cluster.setupPrimary(isSingleExecutable() ? { silent: false, exec: SEA_WORKER_ARG, args: process.argv.slice(2) } : { silent: false });
  const first = fork();
  port = await listening(first);
  await Promise.all(Array.from({ length: count - 1 }, () => listening(fork())));

  // A worker that dies (crash, OOM kill, fatal error) is replaced; one that dies right after it
  // started is replaced after a pause, so a worker that cannot start does not spin the CPU.
  cluster.on("exit", (w, code, signal) => {
    const bornAt = started.get(w) ?? 0;
    started.delete(w);
    for (const asked of metricsAsked.values()) if (asked.waiting.delete(w) && !asked.waiting.size) asked.done();
    readiness.forget(w);
    if (stopping) return;
    const quick = Date.now() - bornAt < 5_000;
    logger.error("HTTP worker died; starting a replacement", { pid: w.process.pid, code, signal, delayMs: quick ? 1000 : 0 });
    setTimeout(() => {
      if (stopping) return;
      const replacement = fork();
      replacement.once("listening", () => logger.info("HTTP worker replaced", { pid: replacement.process.pid }));
    }, quick ? 1000 : 0);
  });

  return {
    port,
    metrics: aggregate,
    stop: async (deadlineMs) => {
      stopping = true;
      const workers = [...started.keys()];
      let failed = false;
      await Promise.all(workers.map((w) => new Promise<void>((done) => {
        if (w.isDead()) return done();
        // A worker that does not finish draining by the deadline (plus time to close) is killed.
        const kill = setTimeout(() => { failed = true; w.process.kill("SIGKILL"); }, deadlineMs + 10_000);
        w.once("exit", (code) => { clearTimeout(kill); if (code !== 0) failed = true; done(); });
        const ask = () => { if (w.isConnected()) w.send({ authsvc: "shutdown" } satisfies ClusterMessage, undefined, () => {}); };
        ask();
        // A worker still starting may not listen for messages yet: ask again once it listens.
        if (!listeningWorkers.has(w)) w.once("listening", ask);
      })));
      cluster.off("message", onMessage);
      return failed;
    },
  };
}

/** Each worker's share of --hash-threads (rounded up: every worker can hash). */
export function hashThreadsPerWorker(config: Readonly<Config>): number {
  return Math.max(1, Math.ceil(config.hashThreads / Math.max(1, config.workers)));
}
