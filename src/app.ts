import type { App as H3App } from "h3";
import { ConfigError, describeConfig, type Config, type ResolvedConfig } from "./config.js";
import { checkClaimProviders } from "./core/claims.js";
import { checkWaysIn } from "./core/ways-in.js";
import { assembleOffers } from "./kernel/offers.js";
import { checkFactors, createMfaClaim } from "./core/mfa.js";
import type { CoreContext, RoomState } from "./core/context.js";
import { background, mail, rooms, smtpOptionsOf, tables, wordsOf } from "./rooms.js";
import { createDummyHash } from "./core/passwords.js";
import { scheduleAccountDeletions } from "./account/deletion.js";
import { schedulePurge } from "./core/purge.js";
import { createKeyRing } from "./core/signing-keys.js";
import { createDeferredWork } from "./core/deferred-work.js";
import { createHttpApp } from "./http/app.js";
import type { Readiness } from "./http/deps.js";
import { createDevMailFeed } from "./http/pages/dev-mail-events.js";
import { startMailCatcher, type MailCatcher } from "./mail/catcher.js";
import { createOutboxWorker, type OutboxWorker } from "./mail/outbox-worker.js";
import { loadTemplateOverrides } from "./mail/template-files.js";
import { createCatcherTransport, createSmtpTransport, type MailTransport } from "./mail/transport.js";
import { openStore, type Store } from "./store/database.js";
import { isMigrated, migrateToLatest } from "./store/migrator.js";
import { probeStore, type StoreProblem } from "./store/health.js";
import { classifyOutage } from "./store/outage.js";
import { createOutageMonitor } from "./ops/outage-monitor.js";
import { systemClock, type Clock } from "./util/clock.js";
import { createLogger, type Logger } from "./util/logger.js";
import { noMetrics } from "./util/metrics.js";
import { createMetrics } from "./ops/metrics.js";
import { startMetricsServer } from "./ops/metrics-server.js";
import { startBackupSchedule, type BackupSchedule } from "./ops/backup-schedule.js";
import { RUN_ONCE_ROLES, type RunOnceRole } from "./ops/run-once.js";
import { isPostgresUrl, sqliteFilePath } from "./store/database.js";
import { findLoosePaths } from "./util/private-files.js";
import { dirname, resolve } from "node:path";
import { setEventHook } from "./store/events.js";
import type { BackgroundWork, BackgroundWorker } from "./core/background.js";

// The rooms' work that commits with every event, in the event's own transaction (Room.background).
for (const work of background) if (work.eventHook) setEventHook(work.id, work.eventHook);
// The rooms' own event hooks, which queue nothing (Room.eventHook).
for (const room of rooms) if (room.eventHook) setEventHook(`room:${room.id}`, room.eventHook);

export interface AppOverrides {
  clock?: Clock;
  logger?: Logger;
  store?: Store;
  /** Where a commit that queued mail says so when this process runs no outbox worker (a cluster's HTTP worker). */
  outboxNotify?: () => void;
  /** The /metrics text when it must speak for more than this process (a cluster aggregates its workers). */
  metricsRender?: () => Promise<{ contentType: string; body: string }>;
  /** Where each setting came from (`serve` passes what resolveConfig found), for the dashboard's configuration page. */
  configSources?: Pick<ResolvedConfig, "sources" | "configFile">;
  /** The whole server's readiness when this process is one HTTP worker of several (asked of the primary once this one is ready). */
  serverReadiness?: () => Promise<Readiness>;
}

/** Everything a running authsvc is made of; close() tears it down in reverse order. */
export interface App {
  config: Readonly<Config>;
  ctx: CoreContext;
  store: Store;
  http: H3App;
  /** Applies pending migrations; returns their names. */
  migrate(): Promise<string[]>;
  /**
   * Starts background work: loads the signing keys (making the first), then the run-once roles
   * given (ops/run-once.ts; default all of them: mail catcher, outbox worker, purge, backups,
   * metrics listener) and, given any, the rooms' background work (Room.background). Called by `serve`.
   */
  start(roles?: readonly RunOnceRole[]): Promise<void>;
  /** Marks the app as shutting down: /readyz answers 503 from now on. */
  beginShutdown(): void;
  close(): Promise<void>;
  /** The mail pipeline: where the built-in catcher listens (after start), and a way to deliver now. */
  mail: {
    catcher(): { host: string; port: number } | undefined;
    /** One delivery pass over the outbox (uses the running worker, or a one-off one). */
    flush(): Promise<{ sent: number; failed: number; via?: string }>;
  };
  /** Operations: where the --metrics-port listener is (after start), the backup schedule if any. */
  ops: {
    metricsServer(): { host: string; port: number } | undefined;
    backups(): BackupSchedule | undefined;
    /** This process's metrics as prom-client JSON (a cluster's primary aggregates them), or [] when off. */
    metricsJson(): Promise<unknown[]>;
    /** This process's own readiness (what /readyz reports for a single process). */
    readiness(): Promise<Readiness>;
  };
  /**
   * The rooms' background work (Room.background), by its id: one pass now (the running worker's, or
   * a one-off one); a pass soon by the running worker (a cluster's worker queued some: cli/serve-cluster.ts).
   */
  background: { flush(id: string): Promise<{ sent: number; failed: number }>; kick(id: string): void };
}

/** Composition root: builds db, clock, logger, services and the HTTP app from a config. */
export async function createApp(config: Readonly<Config>, overrides: AppOverrides = {}): Promise<App> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  // Each room's state (e.g. the provider registry), built before anything opens so a bad
  // setting stops the start with a clear message (ConfigError).
  const roomState = Object.assign({}, ...rooms.map((r) => r.init?.(config) ?? {})) as RoomState;
  // What the rooms offer each other (Room.accounts, Room.memberships), once; a room switched on
  // that needs what no room offers stops the start here, naming it.
  const offers = assembleOffers(rooms, config);
  const clock = overrides.clock ?? systemClock;
  const store = overrides.store ?? openStore({
    url: config.database, sqliteSynchronous: config.sqliteSynchronous,
    onPoolerDetected: () => logger.warn("a transaction-mode connection pooler answered (a prepared statement met another session's): authsvc now sends no named statements; add ?pooler=transaction to the database URL so it knows from the start, and before any ?schema= is used"),
  });
  const dummyHash = createDummyHash(config.bcryptCost);
  dummyHash.catch(() => {});
  const keys = createKeyRing({ config, store, clock, logger });
  let worker: OutboxWorker | undefined;
  const running = new Map<string, BackgroundWorker>();
  let catcher: MailCatcher | undefined;
  // Metrics exist only when asked for (--metrics, or --metrics-port): never on by accident.
  const metrics = config.metrics || config.metricsPort !== undefined ? createMetrics({ store, clock }) : undefined;
  let metricsServer: { host: string; port: number; close(): Promise<void> } | undefined;
  let backups: BackupSchedule | undefined;
  const deferred = createDeferredWork(logger);
  const factors = checkFactors(rooms.flatMap((r) => r.factors ?? []));
  const ctx: CoreContext = {
    metrics: metrics?.sink ?? noMetrics,
    ...roomState,
    config, store, clock, logger, dummyHash, keys, deferred,
    // The kernel's second-factor claim, then each room's (Room.claims).
    claims: checkClaimProviders([createMfaClaim({ config, factors }), ...rooms.flatMap((r) => r.claims?.(config) ?? [])]),
    factors,
    logins: rooms.flatMap((r) => (r.logins ? [r.logins] : [])),
    importParts: rooms.flatMap((r) => (r.importer ? [r.importer] : [])),
    mergePerson: rooms.flatMap((r) => (r.mergePerson ? [r.mergePerson] : [])),
    personDeletion: rooms.flatMap((r) => (r.personDeletion ? [r.personDeletion] : [])),
    waysIn: checkWaysIn(rooms.flatMap((r) => r.waysIn ?? [])),
    purge: rooms.flatMap((r) => r.purge ?? []),
    passwordChecks: rooms.flatMap((r) => r.passwordCheck?.(config, { logger, clock }) ?? []),
    personGates: rooms.flatMap((r) => (r.personGate ? [r.personGate] : [])),
    signInPolicies: rooms.flatMap((r) => (r.signInPolicy ? [r.signInPolicy] : [])),
    sessionOpened: rooms.flatMap((r) => (r.sessionOpened ? [r.sessionOpened] : [])),
    accounts: offers.accounts,
    memberships: offers.memberships,
    outboxNotify: () => (worker ? worker.kick() : overrides.outboxNotify?.()),
    mail,
    mailTemplates: loadTemplateOverridesOrFail(config.mailTemplatesDir),
    words: wordsOf(config, logger),
  };
  // Where mail goes: the relay when configured; in development the built-in catcher (this
  // process's, or the one a running `serve` holds); otherwise nowhere and mail stays queued.
  // What the rooms add to the relay's transport (DKIM signing), read once.
  const smtpOptions = smtpOptionsOf(config);
  const createTransport = (): MailTransport | undefined => {
    if (config.smtpUrl) return createSmtpTransport(config.smtpUrl, { production: config.mode === "production", options: smtpOptions });
    if (catcher) return createCatcherTransport(catcher.host, catcher.port, smtpOptions);
    if (config.mode === "development" && config.mailCatcher) return createCatcherTransport(config.mailCatcherHost, config.mailCatcherPort, smtpOptions);
    return undefined;
  };
  const newBackgroundWorker = (work: BackgroundWork) => work.worker(ctx, { noteOutage: (kind, err) => outages.noteFailure(kind, err) });
  const newWorker = (transport: MailTransport) => createOutboxWorker({ store, clock, logger, transport, from: config.mailFrom, noteOutage: (kind, err) => outages.noteFailure(kind, err) });

  let shuttingDown = false;
  let migrated = false;
  // Database outages: logged once each with start and end, counted, and reported by /readyz.
  const outages = createOutageMonitor({ probe: () => probeStore(store), clock, logger, metrics: ctx.metrics });
  const ownReadiness = async (): Promise<Readiness> => {
    if (shuttingDown) return { ready: false, reason: "shutting down" };
    try {
      if (!migrated) migrated = await isMigrated(store);
      if (!migrated) return { ready: false, reason: "migrations pending" };
    } catch (err) {
      return { ready: false, reason: describeProblem({ kind: classifyOutage(err) ?? "unreachable", detail: (err as Error).message }) };
    }
    // A full or read-only disk leaves reads working: ask about writes too (store/health.ts), and
    // keep failing while writes still fail even if the disk looks better.
    const problem = await probeStore(store);
    if (problem) {
      outages.noteFailure(problem.kind);
      return { ready: false, reason: describeProblem(problem) };
    }
    const known = outages.current();
    if (known && known.kind !== "unreachable") return { ready: false, reason: describeProblem({ kind: known.kind, detail: "writes are still failing" }) };
    return { ready: true };
  };
  // A cluster's worker that is itself fine answers for the whole server (the primary's view).
  const readiness = async (): Promise<Readiness> => {
    const own = await ownReadiness();
    return own.ready && overrides.serverReadiness ? overrides.serverReadiness() : own;
  };

  // The development inbox's live feed holds streams open; shutdown ends them (see beginShutdown).
  const devMailFeed = config.mode === "development" ? createDevMailFeed(ctx) : undefined;
  const metricsEndpoint = metrics && overrides.metricsRender ? { ...metrics, render: overrides.metricsRender } : metrics;
  // The effective settings, secrets masked, as `authsvc config` prints them; without recorded sources
  // (an app built by a test or a script) each source reads "not recorded".
  const settings = () => ({ configFile: overrides.configSources?.configFile, rows: describeConfig({ config, sources: overrides.configSources?.sources ?? {} as ResolvedConfig["sources"], configFile: undefined }) });
  const http = createHttpApp({ ctx, tables, readiness, noteOutage: outages.noteFailure, devMailFeed, settings, metricsEndpoint: metricsEndpoint && config.metricsPort === undefined ? metricsEndpoint : undefined });
  const stoppers: Array<() => Promise<void>> = [];
  let closed = false;

  return {
    config,
    ctx,
    store,
    http,
    migrate: async () => {
      const applied = await migrateToLatest(store, clock.now);
      migrated = true;
      return applied;
    },
    start: async (roles = RUN_ONCE_ROLES) => {
      await keys.load(); // create the first signing key now rather than on the first sign-in
      if (!roles.length) return; // a cluster's HTTP worker: the primary runs the rest, once
      warnAboutLooseFiles(config, logger);
      if (config.mailCatcher && roles.includes("mail-catcher")) {
        catcher = await startMailCatcher({ store, clock, logger, host: config.mailCatcherHost, port: config.mailCatcherPort, retention: config.mailCatcherRetention, maxAgeMs: config.mailCatcherMaxAgeMs, onCaught: ctx.metrics.mailCaught });
        stoppers.push(() => catcher!.close());
      }
      const transport = roles.includes("outbox") ? createTransport() : undefined;
      if (!roles.includes("outbox")) { /* another process delivers */ } else if (transport) {
        const w = newWorker(transport);
        worker = w;
        stoppers.push(async () => { await w.stop(); transport.close(); });
        w.start();
        logger.info("mail delivery", { via: transport.description });
      } else {
        logger.warn("no SMTP relay configured and the mail catcher is off: mail stays queued in the outbox");
      }
      // The rooms' background work: a commit kicks the worker of its own process at once; a
      // cluster's HTTP workers run none and kick the primary's over the cluster's channel instead.
      for (const work of background) {
        await work.prepare?.(ctx, { roles });
        const w = newBackgroundWorker(work);
        running.set(work.id, w);
        stoppers.push(() => w.stop());
        w.start();
      }
      if (metricsEndpoint && config.metricsPort !== undefined && roles.includes("metrics-listener")) {
        const m = await startMetricsServer(metricsEndpoint, config.metricsHost, config.metricsPort, logger);
        metricsServer = m;
        stoppers.push(() => m.close());
      }
      if (config.backupDir && roles.includes("backups")) {
        if (isPostgresUrl(config.database)) throw new ConfigError("invalid value for --backup-dir: scheduled backups are for the embedded SQLite database; back PostgreSQL up with pg_dump");
        const b = startBackupSchedule({ file: sqliteFilePath(config.database), dir: config.backupDir, everyMs: config.backupEveryMs, keep: config.backupKeep, clock, logger });
        backups = b;
        stoppers.push(() => b.stop());
        logger.info("scheduled backups", { dir: config.backupDir, every: config.backupEveryMs, keep: config.backupKeep });
      }
      if (roles.includes("purge")) {
        stoppers.push(schedulePurge(ctx)); // expired tokens, ended sessions, dead refresh-token hashes
        stoppers.push(scheduleAccountDeletions(ctx)); // self-service deletions whose grace period passed
      }
    },
    beginShutdown: () => { shuttingDown = true; devMailFeed?.close(); },
    mail: {
      catcher: () => (catcher ? { host: catcher.host, port: catcher.port } : undefined),
      flush: async () => {
        if (worker) return worker.runOnce();
        const transport = createTransport();
        if (!transport) return { sent: 0, failed: 0 };
        try {
          return { ...(await newWorker(transport).runOnce()), via: transport.description };
        } finally {
          transport.close();
        }
      },
    },
    ops: {
      metricsServer: () => (metricsServer ? { host: metricsServer.host, port: metricsServer.port } : undefined),
      backups: () => backups,
      metricsJson: async () => (metrics ? metrics.json() : []),
      readiness: ownReadiness,
    },
    background: {
      flush: (id) => (running.get(id) ?? newBackgroundWorker(backgroundWork(id))).runOnce(),
      kick: (id) => running.get(id)?.kick(),
    },
    close: async () => {
      if (closed) return;
      closed = true;
      shuttingDown = true;
      devMailFeed?.close();
      outages.close();
      await deferred.drain(); // after-the-answer jobs commit (and queue their mail) before the worker drains
      for (const stop of stoppers.reverse()) await stop().catch((err) => logger.error("stop failed", { err }));
      if (!overrides.store) await store.close();
    },
  };
}

/**
 * The SQLite database (and its folder, and the backup folder) should be the operator's alone: they
 * hold every password hash. New files are made 0600 / 0700; an existing file keeps the mode the
 * operator gave it, so say so at start when other local accounts can reach it.
 */
function warnAboutLooseFiles(config: Readonly<Config>, logger: Logger): void {
  if (isPostgresUrl(config.database) || sqliteFilePath(config.database) === ":memory:") return;
  const file = resolve(sqliteFilePath(config.database));
  const loose = findLoosePaths([file, dirname(file), ...(config.backupDir ? [resolve(config.backupDir)] : [])]);
  if (loose.length) logger.warn(`database files are open to other local accounts (they hold password hashes): ${loose.join("; ")}; run chmod 600 on files and chmod 700 on folders`, { paths: loose });
}

/** The rooms' background work of that id (an unknown id is a programming error). */
function backgroundWork(id: string): BackgroundWork {
  const work = background.find((w) => w.id === id);
  if (!work) throw new Error(`no background work ${id}`);
  return work;
}

/** /readyz's reason for a database problem. */
function describeProblem(p: StoreProblem): string {
  const what = { unreachable: "database unreachable", "read-only": "database read-only", full: "database disk full", io: "database I/O error" }[p.kind];
  return `${what}: ${p.detail}`;
}

/** Template overrides; a missing folder or a bad template is a configuration error naming the setting. */
function loadTemplateOverridesOrFail(dir: string | undefined): ReturnType<typeof loadTemplateOverrides> {
  try { return loadTemplateOverrides(dir, mail); } catch (err) { throw new ConfigError(`invalid value for mailTemplatesDir (--mail-templates-dir): ${(err as Error).message}`); }
}
