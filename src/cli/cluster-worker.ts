import cluster from "node:cluster";
import type { App, AppOverrides } from "../app.js";
import type { Config } from "../config.js";
import { HTTP_WORKER_ROLES } from "../ops/run-once.js";
import { configureHashPool, delegateHashing } from "../core/hash-pool.js";
import type { Readiness } from "../http/deps.js";
import { ListenError, startHttpServer } from "../http/server.js";
import { createLogger } from "../util/logger.js";
import { createWorkerReadiness } from "./cluster-readiness.js";
import { openAppOrFail } from "./context.js";
import { CliError, type CliIO } from "./io.js";
import { background } from "../rooms.js";
import { hashingInPrimary } from "./cluster-hashing.js";
import { isMessage, METRICS_TIMEOUT_MS, type ClusterMessage } from "./serve-cluster.js";

// One HTTP worker of `serve --workers N` (the primary's side and the messages: cli/serve-cluster.ts).

/** Sends to the primary; a closed channel (the primary is gone) is ignored: the worker is draining then. */
function toPrimary(m: ClusterMessage): void {
  if (process.connected) process.send!(m, undefined, undefined, () => {});
}

/** Several commits in one turn of the event loop make one kick. */
function coalesce(kick: () => void): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    setImmediate(() => { queued = false; kick(); });
  };
}

/** This worker's own readiness once its app exists (serveAsWorker); until then it counts as starting. */
let ownReadiness: (() => Promise<Readiness>) | undefined;

/** What an HTTP worker gives createApp: mail kicks, /metrics and /readyz go to the primary. */
export function workerAppOverrides(): { outboxNotify: () => void; metricsRender: () => Promise<{ contentType: string; body: string }>; serverReadiness: () => Promise<Readiness> } {
  let nextId = 1;
  const waiting = new Map<number, (a: { contentType: string; body: string }) => void>();
  const readiness = createWorkerReadiness(toPrimary);
  process.on("message", (m: unknown) => {
    if (!isMessage(m)) return;
    if (m.authsvc === "metrics-answer") { waiting.get(m.id)?.({ contentType: m.contentType, body: m.body }); waiting.delete(m.id); }
    else if (m.authsvc === "readiness-answer" || m.authsvc === "readiness-collect") readiness.onMessage(m, ownReadiness);
  });
  return {
    serverReadiness: readiness.ask,
    outboxNotify: coalesce(() => toPrimary({ authsvc: "outbox-kick" })),
    metricsRender: () => new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => { waiting.delete(id); reject(new Error("the primary process did not answer the metrics request")); }, METRICS_TIMEOUT_MS * 2);
      waiting.set(id, (a) => { clearTimeout(timer); resolve(a); });
      toPrimary({ authsvc: "metrics-request", id });
    }),
  };
}

/**
 * The worker's side of the channel once its app exists: answers the primary's metrics collection
 * with this process's figures, and calls `onStop` when the primary goes away. (The request to
 * drain is listened for from the worker's first moment: runHttpWorker.)
 */
export function serveAsWorker(app: App, onStop: (reason: string) => void): () => void {
  const onMessage = (m: unknown) => {
    if (!isMessage(m)) return;
    if (m.authsvc === "metrics-collect") {
      app.ops.metricsJson().then((json) => toPrimary({ authsvc: "metrics-part", id: m.id, json }), () => toPrimary({ authsvc: "metrics-part", id: m.id, json: [] }));
    }
  };
  const onGone = () => onStop("primary exited");
  process.on("message", onMessage);
  process.on("disconnect", onGone);
  // The primary may have gone while this worker opened its app: then it stops without listening.
  if (!process.connected) queueMicrotask(onGone);
  ownReadiness = app.ops.readiness;
  return () => { ownReadiness = undefined; process.off("message", onMessage); process.off("disconnect", onGone); };
}

/**
 * Ends the worker's channel so the process can exit once its work is done. Through the cluster's
 * own disconnect: a bare process.disconnect() counts as "the primary vanished" and exits at once
 * with code 0, before the exit code and the last log lines.
 */
export function leaveCluster(): void {
  if (cluster.isWorker && process.connected) cluster.worker!.disconnect();
}

/**
 * What the primary says while this worker starts: "open" (the schema is current: open the app)
 * and then "socket" (the handle to listen on). Listened for from the first moment and asked for
 * with "socket-wanted": a message sent before this process listened would be lost. Both resolve
 * false / undefined when the worker must stop instead: the primary asked, or it is gone.
 */
function primarySignals(): { open: Promise<boolean>; socket: Promise<{ handle: object; port: number } | undefined>; done: () => void } {
  let onOpen!: (go: boolean) => void;
  let onSocket!: (socket: { handle: object; port: number } | undefined) => void;
  const open = new Promise<boolean>((resolve) => { onOpen = resolve; });
  const socket = new Promise<{ handle: object; port: number } | undefined>((resolve) => { onSocket = resolve; });
  const stop = () => { onOpen(false); onSocket(undefined); };
  const onMessage = (m: unknown, handle: unknown) => {
    if (!isMessage(m)) return;
    if (m.authsvc === "open") onOpen(true);
    else if (m.authsvc === "socket" && handle) { onOpen(true); onSocket({ handle: handle as object, port: m.port }); }
    else if (m.authsvc === "shutdown") stop();
  };
  process.on("message", onMessage);
  process.on("disconnect", stop);
  if (!process.connected) stop();
  else toPrimary({ authsvc: "socket-wanted" });
  return { open, socket, done: () => { process.off("message", onMessage); process.off("disconnect", stop); } };
}

/**
 * One HTTP worker of a cluster: loads while the primary migrates the database, opens a full app
 * (no migrations, no run-once roles) once the schema is current, while the primary starts the
 * rest, and listens with the same listener stack as a single-process serve on the socket the
 * primary then hands over. Its log lines carry its worker id. Exits
 * (by resolving) once drained; a cut-off drain or a fatal error is exit 1 (the primary logs and,
 * outside a shutdown, replaces it). Until it listens, a SIGINT or SIGTERM ends it at once (it has
 * no request to finish); once it listens, signals are the primary's to handle.
 */
export async function runHttpWorker(io: CliIO, config: Readonly<Config>, configSources?: AppOverrides["configSources"]): Promise<void> {
  const id = cluster.worker?.id ?? 0;
  const logger = createLogger(config.logLevel, (line) => io.err(line.replace(/^\{/, `{"worker":${id},`)));
  // A primary killed while this worker starts closes the channel under a send: that is a stop, not a crash.
  const onChannelError = (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE" || err.code === "ERR_IPC_CHANNEL_CLOSED" || err.code === "ECONNRESET") return;
    throw err;
  };
  process.on("error", onChannelError);
  logger.debug("worker loaded", { sinceLaunchMs: Math.round(performance.now()) });
  // Passwords are hashed on the primary's threads, shared by every worker (cli/cluster-hashing.ts);
  // from here on, so the app's dummy hash goes there too. Its own pool, at lower priority as the
  // primary's, serves only while the primary is gone.
  configureHashPool({ threads: 1, nice: 10 });
  const hashing = hashingInPrimary(toPrimary, () => process.connected);
  delegateHashing(hashing);
  process.on("message", hashing.onMessage);
  process.on("disconnect", hashing.primaryGone);
  const primary = primarySignals();
  if (!(await primary.open)) {
    primary.done();
    leaveCluster();
    return;
  }
  let onStop!: (reason: string) => void;
  const stopRequested = new Promise<string>((resolve) => { onStop = resolve; });
  const ignore = () => {};
  let fatal = false;
  const onShutdown = (m: unknown) => { if (isMessage(m) && m.authsvc === "shutdown") onStop("primary asked"); };
  process.on("message", onShutdown);
  // Commits here kick the primary's workers of the rooms' background work (this process runs none).
  const leaveKickLists = background.map((work) => work.forwardKicks(coalesce(() => toPrimary({ authsvc: "kick", work: work.id }))));
  try {
    const app = await openAppOrFail(config, logger, { ...workerAppOverrides(), configSources });
    const unlisten = serveAsWorker(app, onStop);
    logger.debug("worker app open", { sinceLaunchMs: Math.round(performance.now()) });
    try {
      await app.start(HTTP_WORKER_ROLES);
      const socket = await primary.socket;
      logger.debug("worker got the socket", { sinceLaunchMs: Math.round(performance.now()) });
      // A primary gone while this worker started: nobody would stop or replace it; do not listen.
      if (!socket || !process.connected) return;
      const http = await startHttpServer(app.http, { port: socket.port, host: config.host, bodyLimit: config.bodyLimit, logger, handle: socket.handle, onFatal: () => { fatal = true; onStop("fatal error"); } })
        .catch((err) => { throw err instanceof ListenError ? new CliError(err.message) : err; });
      // A Ctrl-C reaches every process of the group: the primary drains the workers, and a worker
      // that stopped on its own would look like a crash to be replaced.
      process.on("SIGINT", ignore);
      process.on("SIGTERM", ignore);
      toPrimary({ authsvc: "listening" });
      const reason = await stopRequested;
      logger.debug("worker draining", { reason });
      app.beginShutdown();
      const cut = await http.stop(config.shutdownTimeoutMs);
      if (cut) throw new CliError("stopped after the shutdown deadline; some requests were cut off");
      if (fatal) throw new CliError("stopped after an uncaught error (logged above)");
    } finally {
      unlisten();
      await app.close();
      logger.debug("worker stopped");
    }
  } finally {
    primary.done();
    for (const leave of leaveKickLists) leave();
    process.off("SIGINT", ignore);
    process.off("SIGTERM", ignore);
    process.off("message", onShutdown);
    leaveCluster();
  }
}
