import cluster, { type Worker } from "node:cluster";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { AggregatorRegistry } from "prom-client";
import type { App } from "../app.js";
import type { Config } from "../config.js";
import { isPostgresUrl, sqliteFilePath } from "../store/database.js";
import { isSingleExecutable } from "../native/addons.js";
import type { ListenSocket } from "../http/listen-socket.js";
import type { Logger } from "../util/logger.js";
import { answerHashJob, type HashMessage } from "./cluster-hashing.js";
import { createServerReadiness, type ReadinessMessage } from "./cluster-readiness.js";

/**
 * `serve --workers N` (N > 1) on node:cluster, the primary's side (the workers': cli/cluster-worker.ts).
 * The primary binds the port (http/listen-socket.ts) and forks the first HTTP worker at once, so
 * that it loads while the primary opens the database and applies the migrations (the other
 * workers are forked once it listens); once the schema is current
 * they open their apps while it starts what must run once (ops/run-once.ts: mail catcher, outbox
 * worker, purge, backups, metrics listener, the rooms' background work); then it hands every worker the bound
 * socket, and each listens on it. The kernel queues the
 * connections and each worker accepts its own: none waits in the primary for a worker that died,
 * and the port stays open while the last worker is replaced. Each worker is a full
 * app over the same database with the same listener stack (http/server.ts); nothing a request
 * relies on lives in a worker's memory alone (rate-limit counters, sessions and revocations are
 * rows; the signing keys are read from the table), so a request to any worker sees the others'
 * writes at once.
 *
 * Between primary and workers, over the cluster's IPC channel:
 * - a worker says it has loaded ("socket-wanted"); the primary says when the schema is current
 *   ("open": the worker may open its app) and sends the socket ("socket", with the handle) once
 *   its own start-up is done; the worker says when it listens ("listening");
 * - a worker's commit that queued mail kicks the primary's outbox worker ("outbox-kick"), and one
 *   that queued a room's background work kicks the primary's worker of it ("kick", naming the
 *   work: Room.background);
 * - /metrics on any worker, or the --metrics-port listener, answers for the whole server: the
 *   primary collects every worker's registry and its own and sums them (prom-client's
 *   AggregatorRegistry; gauges of shared state take the max);
 * - SIGTERM or SIGINT reach the primary, which tells every worker to drain ("shutdown"): each
 *   fails /readyz, serves what already arrived, finishes its in-flight requests and exits; then
 *   the primary stops the run-once work and exits. Listening workers ignore signals of their own
 *   (a Ctrl-C reaches the whole process group) and drain as well when the primary disappears; a
 *   worker still starting is stopped with SIGTERM (it has no request to finish).
 * - /readyz on any worker answers for the whole server: the primary's own readiness and how many
 *   workers are ready (cli/cluster-readiness.ts);
 * - a worker that dies any other way is logged and replaced.
 */
export type ClusterMessage =
  | { authsvc: "socket-wanted" }
  | { authsvc: "open" }
  | { authsvc: "socket"; port: number }
  | { authsvc: "listening" }
  | { authsvc: "outbox-kick" }
  | { authsvc: "kick"; work: string }
  | { authsvc: "shutdown" }
  | { authsvc: "metrics-request"; id: number }
  | { authsvc: "metrics-answer"; id: number; contentType: string; body: string }
  | { authsvc: "metrics-collect"; id: number }
  | { authsvc: "metrics-part"; id: number; json: unknown[] }
  | HashMessage
  | ReadinessMessage;

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
  /** The schema is current: the workers may open their apps (they listen only after release). */
  migrated(): void;
  /** Hands the socket to the workers, which then listen: the primary's start-up is done. */
  release(app: App): void;
  /** Resolves when the first worker listens; rejects when a worker exits before any listened (it printed why). */
  firstListening: Promise<void>;
  /** Drains every worker (SIGTERM path), at any moment; resolves true when any worker had to cut requests off or failed. */
  stop(deadlineMs: number): Promise<boolean>;
  /** The /metrics text of the whole server: every worker's figures and the primary's, summed. */
  metrics(): Promise<{ contentType: string; body: string }>;
}

const send = (w: Worker, m: ClusterMessage, handle?: object) => { if (w.isConnected()) w.send(m, handle as never, () => {}); };

/**
 * The primary: forks the first worker at once (it loads while the primary starts) and the others
 * when it listens, hands them the socket on release(), relays their messages, replaces a worker
 * that dies once the server is up, and drains them on stop.
 */
export function startCluster(opts: { socket: ListenSocket; config: Readonly<Config>; count: number; logger: Logger }): Cluster {
  const { socket, count, logger } = opts;
  let app: App | undefined;
  let stopping = false;
  let up = false;
  let schemaCurrent = false;
  const started = new Map<Worker, number>();
  const listeningWorkers = new WeakSet<Worker>();
  const wanting = new Set<Worker>();
  const metricsAsked = new Map<number, { parts: unknown[][]; waiting: Set<Worker>; done: () => void }>();
  let nextCollect = 1;
  let readiness: ReturnType<typeof createServerReadiness> | undefined;
  let onFirst!: () => void;
  let onFailed!: (err: Error) => void;
  const firstListening = new Promise<void>((resolve, reject) => { onFirst = resolve; onFailed = reject; });
  firstListening.catch(() => {});

  const aggregate = async (): Promise<{ contentType: string; body: string }> => {
    if (!app) throw new Error("the HTTP workers are still starting");
    const id = nextCollect++;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w.isConnected() && listeningWorkers.has(w));
    const parts: unknown[][] = [await app.ops.metricsJson()];
    await new Promise<void>((done) => {
      const waiting = new Set(workers);
      if (!waiting.size) return done();
      const timer = setTimeout(() => { metricsAsked.delete(id); done(); }, METRICS_TIMEOUT_MS);
      metricsAsked.set(id, { parts, waiting, done: () => { clearTimeout(timer); metricsAsked.delete(id); done(); } });
      for (const w of workers) send(w, { authsvc: "metrics-collect", id });
    });
    const registry = AggregatorRegistry.aggregate(parts.filter((p) => p.length) as Parameters<typeof AggregatorRegistry.aggregate>[0]);
    return { contentType: registry.contentType, body: await registry.metrics() };
  };

  const giveSocket = (w: Worker) => { wanting.delete(w); send(w, { authsvc: "socket", port: socket.port }, socket.handle); };

  const onMessage = (worker: Worker, m: unknown) => {
    if (!isMessage(m)) return;
    if (m.authsvc === "socket-wanted") {
      if (schemaCurrent && !stopping) send(worker, { authsvc: "open" });
      if (app && !stopping) giveSocket(worker);
      else wanting.add(worker);
    } else if (m.authsvc === "listening") onListening(worker);
    // Hashing needs no app: a worker's app hashes a dummy password while it opens (cli/cluster-hashing.ts).
    else if (m.authsvc === "hash-job") answerHashJob(m, (answer) => send(worker, answer));
    else if (!app) {
      return;
    } else if (m.authsvc === "readiness-request" || m.authsvc === "readiness-part") readiness?.onMessage(worker, m);
    else if (m.authsvc === "outbox-kick") app.ctx.outboxNotify?.();
    else if (m.authsvc === "kick") app.background.kick(m.work);
    else if (m.authsvc === "metrics-request") {
      aggregate().then(
        (a) => send(worker, { authsvc: "metrics-answer", id: m.id, ...a }),
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

  const fork = (): Worker => {
    const w = cluster.fork();
    started.set(w, Date.now());
    return w;
  };

  // A worker that dies (crash, OOM kill, fatal error) is replaced; one that dies right after it
  // started is replaced after a pause, so a worker that cannot start does not spin the CPU. While
  // the server starts, a worker that exits before listening fails the start instead.
  const onExit = (w: Worker, code: number | null, signal: string | null) => {
    const bornAt = started.get(w) ?? 0;
    started.delete(w);
    wanting.delete(w);
    for (const asked of metricsAsked.values()) if (asked.waiting.delete(w) && !asked.waiting.size) asked.done();
    readiness?.forget(w);
    if (stopping) return;
    if (!up) return onFailed(new Error(`an HTTP worker exited before listening (${signal ?? `code ${code}`})`));
    const quick = Date.now() - bornAt < 5_000;
    logger.error("HTTP worker died; starting a replacement", { pid: w.process.pid, code, signal, delayMs: quick ? 1000 : 0 });
    setTimeout(() => {
      if (stopping) return;
      replacements.add(fork());
    }, quick ? 1000 : 0);
  };

  const replacements = new WeakSet<Worker>();
  const onListening = (w: Worker) => {
    listeningWorkers.add(w);
    if (replacements.has(w)) logger.info("HTTP worker replaced", { pid: w.process.pid });
    if (!up && !stopping) {
      up = true;
      onFirst();
      // The others start now (see below), while the first one serves.
      for (let i = 1; i < count; i++) fork();
    }
  };

  cluster.setupPrimary(isSingleExecutable() ? { silent: false, exec: SEA_WORKER_ARG, args: process.argv.slice(2) } : { silent: false, execArgv: workerExecArgv() });
  cluster.on("message", onMessage);
  cluster.on("exit", onExit);
  // One worker first: it loads while this process migrates, without the others taking the CPU
  // from both (on a 2-core machine three processes loading at once made the first answer wait
  // for all of them); the rest are forked when it listens (onListening).
  fork();

  return {
    port: socket.port,
    firstListening,
    metrics: aggregate,
    migrated: () => {
      schemaCurrent = true;
      if (!stopping) for (const w of wanting) send(w, { authsvc: "open" });
    },
    release: (a) => {
      app = a;
      readiness = createServerReadiness({
        app: a, total: count,
        workers: () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w.isConnected() && listeningWorkers.has(w)),
      });
      for (const w of wanting) giveSocket(w);
    },
    stop: async (deadlineMs) => {
      stopping = true;
      onFailed(new Error("stopped while starting"));
      // The primary's copy of the socket closes now: the port closes once every worker has closed its own.
      socket.close();
      const workers = [...started.keys()];
      let failed = false;
      await Promise.all(workers.map((w) => new Promise<void>((done) => {
        if (w.isDead()) return done();
        // A worker that does not finish draining by the deadline (plus time to close) is killed.
        const kill = setTimeout(() => { failed = true; w.process.kill("SIGKILL"); }, deadlineMs + 10_000);
        w.once("exit", (code, signal) => { clearTimeout(kill); if (code !== 0 && !(signal && !listeningWorkers.has(w))) failed = true; done(); });
        // A listening worker drains; one still starting has nothing to finish and stops at once.
        send(w, { authsvc: "shutdown" });
        if (!listeningWorkers.has(w)) w.process.kill("SIGTERM");
      })));
      cluster.off("message", onMessage);
      cluster.off("exit", onExit);
      return failed;
    },
  };
}

/**
 * Node's options for a worker: the primary's, and bin/cluster-worker-preload.cjs (beside the script
 * the worker runs, bin/authsvc), which keeps a primary killed during the worker's first moment from
 * printing a stack in the worker.
 */
function workerExecArgv(): string[] {
  const preload = process.argv[1] ? join(dirname(process.argv[1]), "cluster-worker-preload.cjs") : undefined;
  return preload && existsSync(preload) ? [...process.execArgv, "--require", preload] : [...process.execArgv];
}

