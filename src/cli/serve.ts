import { availableParallelism, constants as osConstants } from "node:os";
import { Command } from "commander";
import type { App, AppOverrides } from "../app.js";
import type { Config } from "../config.js";
import { ListenError, startHttpServer, type HttpServer } from "../http/server.js";
import { formatDuration } from "../util/duration.js";
import { isLoopbackHost } from "../http/site.js";
import { isLocalDevelopment } from "../config/limit-defaults.js";
import { lowerHashingPriority } from "../core/hashing-priority.js";
import { createLogger, type Logger } from "../util/logger.js";
import { maskUrlPassword } from "../util/mask-url.js";
import { launchCommand } from "../util/launch-command.js";
import { openAppOrFail } from "./context.js";
import { checkPortsFree, checkSqliteLocation } from "./preflight.js";
import { addConfigOptions, configFromFlags } from "./options.js";
import { CliError, type CliIO } from "./io.js";
import { canCluster, isClusterWorker, startCluster, type Cluster } from "./serve-cluster.js";
import { bindListenSocket } from "../http/listen-socket.js";
import { isPostgresUrl, sqliteFilePath } from "../store/database.js";
import { describeConnectionMode } from "../store/pg-connection.js";
import { holdServeLock, serveLockPath } from "../ops/serve-lock.js";
import { runHttpWorker } from "./cluster-worker.js";
import { OpsError } from "../ops/backup.js";
import { readUpgradeState, refuseNewerDatabase, takeRestorePoint } from "../ops/upgrade.js";
import { authsvcVersion } from "./version.js";
import { describeWorkers } from "../config/worker-fit.js";
import { detectMemoryLimit } from "../util/memory-limit.js";

/** `authsvc serve`: migrate, listen, and shut down gracefully on SIGINT/SIGTERM. */
export function serveCommand(io: CliIO): Command {
  const cmd = new Command("serve")
    .description("run the authentication server")
    .option("--no-migrate", "do not apply pending migrations at start");
  addConfigOptions(cmd, "all");
  return cmd.action(async (flags) => {
    if (!io.onSignal) throw new CliError("serve needs signal handling (run it from the real CLI)");
    const resolved = configFromFlags(flags, io);
    const { config } = resolved;
    const configSources = { sources: resolved.sources, configFile: resolved.configFile };
    // --workers N: this process is the primary (run-once work) or one of the HTTP workers (serve-cluster.ts).
    const clustered = io.canFork === true && canCluster(config);
    if (clustered && isClusterWorker()) return runHttpWorker(io, config, configSources);
    const logger = createLogger(config.logLevel, (line) => io.err(line));
    // Listen for SIGINT/SIGTERM before anything else: a signal during start-up (or right after the
    // banner) must lead to the same clean shutdown, not to the default "killed by signal".
    let onStop!: (signal: string) => void;
    let fatal = false;
    const stopRequested = new Promise<string>((resolve) => { onStop = resolve; });
    const off = io.onSignal((signal) => onStop(signal));
    // `npx authsvc serve` runs us under `npm exec` and `sh -c`: a SIGTERM sent to npx (by a process
    // manager, or `kill`) does not reach this process, which would live on as an orphan holding the
    // port. Started by npm, we follow the launcher: when it goes away we stop as on SIGTERM. Its pid
    // is taken now, not after the banner: a launcher killed in between would otherwise already have
    // been replaced by init as our parent, and we would watch the wrong process forever.
    const unwatch = io.env.npm_command ? watchParent(process.ppid, () => onStop("launcher exited")) : undefined;
    const steps: Array<() => Promise<void> | void> = []; // undone in reverse on the way out
    let stopSignal: string | undefined;
    let releaseLock: (() => void) | undefined;
    void stopRequested.then((signal) => { stopSignal ??= signal; });
    try {
      // --workers N: bind the port first (a port in use fails the start before any file is
      // made), then fork the workers, so they load while this process opens the database and
      // migrates; the banner comes when the first worker listens.
      const socket = clustered ? await bindListenSocket(config.host, config.port).catch((err) => { throw err instanceof ListenError ? new CliError(err.message) : err; }) : undefined;
      if (socket) steps.push(() => socket.close());
      await checkPortsFree(config, { httpPortBoundFirst: clustered });
      releaseLock = lockSqliteFile(config);
      // bcrypt yields the CPU to request handling (docs/performance.md); measured by npm run bench.
      // The pool is sized now, before the app hashes its dummy password; a thread starts at the
      // first hash. Under --workers it is the primary's, and hashes for every worker (cli/cluster-hashing.ts).
      lowerHashingPriority(10, config.hashThreads, (lowered) => logger.debug("password hashing thread started", { lowered }));
      let whole: Cluster | undefined;
      if (socket) {
        whole = startCluster({ socket, config, count: config.workers, logger });
        const cluster = whole;
        steps.push(async () => { await cluster.stop(0); });
      }
      const started = startServer({ config, logger, clustered, whole, configSources, migrate: flags.migrate !== false, stopped: () => stopSignal !== undefined, steps, onFatal: () => { fatal = true; onStop("fatal error"); } });
      // A signal during start-up stops at once: what started is undone, nothing waits for the rest.
      const first = await Promise.race([started, stopRequested.then((signal) => ({ signal }))]);
      if ("signal" in first) {
        logger.info("stopped while starting", { signal: first.signal });
        await whole?.stop(0);
        await started.catch(() => undefined);
        throw new CliError("stopped while starting", exitCodeForSignal(first.signal));
      }
      const { app, http } = first;
      steps.length = 0;
      printBanner(io, config, http.port, app.mail.catcher(), app.store.pgMode && describeConnectionMode(app.store.pgMode));
      printOpsBanner(io, config, http.port, app.ops.metricsServer());
      for (const line of describeWorkers(config, resolved.sources, availableParallelism(), detectMemoryLimit().from)) io.err(line);
      if (clustered) io.err(`  workers:    ${config.workers} HTTP worker processes on port ${http.port}; ${config.hashThreads} password-hashing thread(s) in the primary for all of them (--workers, --hash-threads).`);
      const signal = await stopRequested;
      const cut = await shutDown(http, app, config.shutdownTimeoutMs, logger, signal);
      if (cut) throw new CliError("stopped after the shutdown deadline; some requests were cut off");
      if (fatal) throw new CliError("stopped after an uncaught error (logged above)");
    } finally {
      for (const undo of steps.reverse()) await Promise.resolve(undo()).catch(() => {});
      releaseLock?.();
      unwatch?.();
      off();
    }
  });
}

/** 130 for SIGINT, 143 for SIGTERM (128 + the signal's number, as a shell reports it); 1 otherwise. */
function exitCodeForSignal(signal: string): number {
  const n = (osConstants.signals as Record<string, number | undefined>)[signal];
  return n ? 128 + n : 1;
}

interface Started { app: App; http: HttpServer | Cluster }

/**
 * The start-up after the port is known: open the database, migrate, start the run-once work, then listen (one process) or hand the socket to the
 * workers and wait for the first to listen. Each step that started pushes its undo onto `steps`,
 * and a stop requested meanwhile ends the start before the next step.
 */
async function startServer(o: {
  config: Readonly<Config>; logger: Logger; clustered: boolean; whole: Cluster | undefined; migrate: boolean;
  configSources: AppOverrides["configSources"]; stopped: () => boolean; steps: Array<() => Promise<void> | void>; onFatal: () => void;
}): Promise<Started> {
  const { config, logger, whole, steps } = o;
  const halt = () => { if (o.stopped()) throw new CliError("stopped while starting"); };
  let app: Started["app"];
  try {
    app = await openAppOrFail(config, logger, { configSources: o.configSources, ...(whole ? { metricsRender: () => whole.metrics() } : {}) });
  } catch (err) {
    throw new CliError(`could not start: ${(err as Error).message}`);
  }
  const opened = app;
  steps.push(() => opened.close());
  try {
    halt();
    await keepWayBack(app, config, logger, o.migrate);
    if (o.migrate) {
      // One line for all of them: a first start applies every migration, and seventeen lines would
      // push the banner off the screen (their names are in `authsvc migrate --plan` and the table).
      const applied = await app.migrate();
      if (applied.length) logger.info(`applied ${applied.length} migration${applied.length === 1 ? "" : "s"}`, { count: applied.length, first: applied[0], last: applied.at(-1) });
    }
    halt();
    whole?.migrated(); // the workers open their apps while this process starts the rest
    await app.start();
    halt();
    if (whole) {
      whole.release(app);
      await whole.firstListening;
      logger.info("HTTP workers started", { workers: config.workers, hashThreads: config.hashThreads });
      return { app, http: whole };
    }
    // An uncaught error that belongs to no request leaves the process in an unknown state:
    // shut down cleanly (exit 1) so the supervisor starts a fresh one.
    const http = await startHttpServer(app.http, { port: config.port, host: config.host, bodyLimit: config.bodyLimit, logger, onFatal: o.onFatal });
    steps.push(async () => { await http.stop(0); });
    return { app, http };
  } catch (err) {
    if (err instanceof CliError) throw err;
    if (err instanceof ListenError) throw new CliError(err.message);
    if (err instanceof OpsError) throw new CliError(`could not start: ${err.message}`, err.exitCode);
    throw new CliError(`could not start: ${(err as Error).message}`);
  }
}

/**
 * Before migrating: a database a newer authsvc migrated is refused (also with --no-migrate: this
 * version would write rows its schema no longer expects), and an upgrade of a database that has a
 * release's schema takes a restore point first (SQLite: a checked copy; PostgreSQL: what to run).
 */
async function keepWayBack(app: App, config: Readonly<Config>, logger: Logger, migrating: boolean): Promise<void> {
  const state = await readUpgradeState(app.store);
  refuseNewerDatabase(state, app.store, authsvcVersion());
  if (!migrating) return;
  const point = await takeRestorePoint(app.store, state, { backupDir: config.backupDir, now: Date.now() });
  if (point?.kind === "sqlite") logger.info("restore point before migrating", { file: point.file, bytes: point.bytes, ms: point.ms, from: state.at, to: state.newest, back: `authsvc restore ${point.file}` });
  if (point?.kind === "postgres") logger.warn(point.advice);
}

/** Takes the one-serve-per-file lock of a SQLite database (ops/serve-lock.ts); PostgreSQL takes any number. */
function lockSqliteFile(config: Readonly<Config>): (() => void) | undefined {
  if (isPostgresUrl(config.database)) return undefined;
  const file = sqliteFilePath(config.database);
  if (file === ":memory:") return undefined;
  // A missing folder is said as such, not as SQLite's "unable to open database file".
  try { checkSqliteLocation(config.database); } catch (err) { throw new CliError(`could not start: ${(err as Error).message}`); }
  let release: ReturnType<typeof holdServeLock>;
  try { release = holdServeLock(file); } catch (err) { throw new CliError(`could not start: ${(err as Error).message}`); }
  if (!release) throw new CliError(`another authsvc serve is already running on ${file} (it holds ${serveLockPath(file)}); stop it first, or start this one on another database. Two servers on one SQLite file would each run the outbox, the webhooks and the purge.`);
  return release;
}

/** Calls `onGone` once when `parent` is no longer this process's parent (it exited; we were re-parented). */
function watchParent(parent: number, onGone: () => void): () => void {
  if (parent <= 1) return () => {};
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, 500);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The start-up banner. `catcher` is where the built-in catcher really listens (with --mail-catcher-port 0, not 0);
 * `connection` how the database is reached (PostgreSQL: directly or through a transaction-mode pooler).
 */
export function printBanner(io: CliIO, config: Readonly<Config>, port: number, catcher: { host: string; port: number } | undefined, connection?: string): void {
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  const mail = config.smtpUrl
    ? `mail goes to the SMTP relay ${maskUrlPassword(config.smtpUrl)}`
    : config.mailCatcher
      ? `mail goes to the built-in catcher on ${catcher?.host ?? config.mailCatcherHost}:${catcher?.port ?? config.mailCatcherPort}; read it with \`${launchCommand()} tail-mail\``
      : "mail goes nowhere: no SMTP relay and the catcher is off";
  const lines = [
    `authsvc listening on http://${host}:${port}  (${config.mode} mode)`,
    `  API:        http://${host}:${port}${config.apiBasePath}  (public URL ${config.publicUrl})`,
    `  database:   ${maskUrlPassword(config.database)}${connection ? `\n              ${connection}` : ""}`,
    `  ${mail}.`,
    // Which address the limits count: a server behind a proxy without --trusted-proxies gives every client one budget.
    config.rateLimits
      ? `  rate limits: on; client IP = ${config.trustedProxies.length ? `X-Forwarded-For from ${config.trustedProxies.join(", ")}, else the socket` : "the socket's address (no --trusted-proxies)"}.`
      : "  rate limits: OFF (--no-rate-limits).",
    ...(config.rateLimits && isLocalDevelopment(config) ? [`  rate limits are development budgets on loopback (sign-ups ${config.limitSignupIp}, sign-ins ${config.limitSigninIp} per IP; mail ${config.limitMailHourly} per address), so test loops do not trip them; production keeps the strict ones.`] : []),
  ];
  if (config.adminApiKey) lines.push(`  admin API:  http://${host}:${port}/admin/v1  (Authorization: Bearer $AUTHSVC_ADMIN_API_KEY)`);
  const local = developmentOrigin(config, host, port);
  if (config.hostedPages) lines.push(`  sign-in:    ${config.publicUrl}${config.websiteBasePath}  (hosted pages: sign-in, sign-up, verify-email, reset-password)`);
  if (config.mode === "development") {
    lines.push(`  inbox:      ${local}/_dev/mail  (caught mail, live; development home at ${local}/)`);
    if (config.hostedPages && config.websiteUrl === config.publicUrl && !config.smtpUrl && config.mailCatcher) {
      lines.push(`  next:       sign up at ${config.publicUrl}${config.websiteBasePath}?show=signup, open the verification mail in the inbox, then sign in.`);
    }
    if (isLoopbackHost(new URL(`http://${host}`))) {
      lines.push(
        "  development mode: loopback only, relaxed defaults.",
        "  WARNING: token-issuing responses include the token in development mode. Never expose this server publicly; use --production.",
      );
    } else {
      // Development answers carry verification and reset tokens: on a reachable address anyone
      // who can connect can take over any account. Say so where it cannot be missed.
      const bar = "!".repeat(78);
      lines.push(
        bar,
        `  DANGER: development mode is listening on ${host}, which is NOT loopback only.`,
        "  Token-issuing responses include the token in development mode: anyone who can reach",
        "  this address can take over any account. Bind to 127.0.0.1 (--host) or use --production.",
        bar,
      );
    }
  }
  io.err(lines.join("\n"));
}

/**
 * Where to open the development pages. They answer loopback only, so a wildcard bind is shown as
 * 127.0.0.1; a loopback public URL is preferred, because the mail links and the session cookies
 * use that host, and a cookie set on 127.0.0.1 is not sent to localhost.
 */
function developmentOrigin(config: Readonly<Config>, host: string, port: number): string {
  const pub = new URL(config.publicUrl);
  if (isLoopbackHost(pub) && (pub.port === String(port) || (pub.port === "" && port === 80))) return config.publicUrl;
  return `http://${config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : host}:${port}`;
}

/** Metrics and scheduled backups, when on. /metrics on the API port in production gets a warning. */
function printOpsBanner(io: CliIO, config: Readonly<Config>, port: number, metricsServer: { host: string; port: number } | undefined): void {
  const lines: string[] = [];
  const hostOf = (h: string) => (h.includes(":") ? `[${h}]` : h);
  if (metricsServer) lines.push(`  metrics:    http://${hostOf(metricsServer.host)}:${metricsServer.port}/metrics  (a listener of its own)`);
  else if (config.metrics) {
    lines.push(`  metrics:    http://${hostOf(config.host)}:${port}/metrics  (on the API port)`);
    if (config.mode === "production") lines.push("  WARNING: /metrics is served on the public API port: block it at your proxy, or move it with --metrics-port (binds to 127.0.0.1).");
  }
  if (config.backupDir) lines.push(`  backups:    every ${formatDuration(config.backupEveryMs)} into ${config.backupDir}, keeping ${config.backupKeep}`);
  if (lines.length) io.err(lines.join("\n"));
}

/**
 * Graceful shutdown (security-bar R5): fail readiness, then serve what already arrived, stop
 * accepting and let in-flight requests finish within the deadline (http/server.ts), stop
 * background work (mail worker, catcher), close the database. Resolves true when the deadline cut
 * requests off (the command then exits 1).
 */
async function shutDown(http: { stop(deadlineMs: number): Promise<boolean> }, app: App, deadlineMs: number, logger: Logger, signal: string): Promise<boolean> {
  logger.info("shutting down", { signal, deadlineMs });
  app.beginShutdown();
  const cut = await http.stop(deadlineMs);
  await app.close();
  logger.info("stopped", { cut });
  return cut;
}
