import type { App as H3App } from "h3";
import { sql } from "kysely";
import { ConfigError, type Config } from "./config.js";
import type { CoreContext } from "./core/context.js";
import { createDummyHash } from "./core/passwords.js";
import { createThirdPartyRegistry, type ThirdPartyRegistry } from "./core/thirdparty/registry.js";
import { purgeExpiredTokens } from "./core/one-time-tokens.js";
import { purgeExpiredLimits } from "./core/limits-admin.js";
import { createKeyRing } from "./core/signing-keys.js";
import { createHttpApp } from "./http/app.js";
import { startMailCatcher, type MailCatcher } from "./mail/catcher.js";
import { createOutboxWorker, type OutboxWorker } from "./mail/outbox-worker.js";
import { loadTemplateOverrides } from "./mail/template-files.js";
import { createCatcherTransport, createSmtpTransport, type MailTransport } from "./mail/transport.js";
import { openStore, type Store } from "./store/database.js";
import { isMigrated, migrateToLatest } from "./store/migrator.js";
import { systemClock, type Clock } from "./util/clock.js";
import { createLogger, type Logger } from "./util/logger.js";

export interface AppOverrides {
  clock?: Clock;
  logger?: Logger;
  store?: Store;
}

/** Everything a running authsvc is made of; close() tears it down in reverse order. */
export interface App {
  config: Readonly<Config>;
  ctx: CoreContext;
  store: Store;
  http: H3App;
  /** Applies pending migrations; returns their names. */
  migrate(): Promise<string[]>;
  /** Starts background work (mail worker, catcher, key loading). Called by `serve`. */
  start(): Promise<void>;
  /** Marks the app as shutting down: /readyz answers 503 from now on. */
  beginShutdown(): void;
  close(): Promise<void>;
  /** The mail pipeline: where the built-in catcher listens (after start), and a way to deliver now. */
  mail: {
    catcher(): { host: string; port: number } | undefined;
    /** One delivery pass over the outbox (uses the running worker, or a one-off one). */
    flush(): Promise<{ sent: number; failed: number; via?: string }>;
  };
}

/** Composition root: builds db, clock, logger, services and the HTTP app from a config. */
export async function createApp(config: Readonly<Config>, overrides: AppOverrides = {}): Promise<App> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  // Providers are checked before anything opens, so a typo stops the start with a clear message.
  let thirdParty: ThirdPartyRegistry;
  try { thirdParty = createThirdPartyRegistry(config.providers, config.mode); } catch (err) { throw new ConfigError(`invalid value for providers: ${(err as Error).message}`); }
  const clock = overrides.clock ?? systemClock;
  const store = overrides.store ?? openStore({ url: config.database, sqliteSynchronous: config.sqliteSynchronous });
  const dummyHash = createDummyHash(config.bcryptCost);
  dummyHash.catch(() => {});
  const keys = createKeyRing({ config, store, clock, logger });
  let worker: OutboxWorker | undefined;
  let catcher: MailCatcher | undefined;
  const ctx: CoreContext = {
    config, store, clock, logger, dummyHash, thirdParty, keys,
    outboxNotify: () => worker?.kick(),
    mailTemplates: loadTemplateOverridesOrFail(config.mailTemplatesDir),
  };
  // Where mail goes: the relay when configured; in development the built-in catcher (this
  // process's, or the one a running `serve` holds); otherwise nowhere and mail stays queued.
  const createTransport = (): MailTransport | undefined => {
    if (config.smtpUrl) return createSmtpTransport(config.smtpUrl, { production: config.mode === "production" });
    if (catcher) return createCatcherTransport(catcher.host, catcher.port);
    if (config.mode === "development" && config.mailCatcher) return createCatcherTransport(config.mailCatcherHost, config.mailCatcherPort);
    return undefined;
  };
  const newWorker = (transport: MailTransport) => createOutboxWorker({ store, clock, logger, transport, from: config.mailFrom });

  let shuttingDown = false;
  let migrated = false;
  const readiness = async (): Promise<{ ready: boolean; reason?: string }> => {
    if (shuttingDown) return { ready: false, reason: "shutting down" };
    try {
      if (!migrated) migrated = await isMigrated(store);
      if (!migrated) return { ready: false, reason: "migrations pending" };
      await sql`select 1`.execute(store.db);
      return { ready: true };
    } catch (err) {
      return { ready: false, reason: (err as Error).message };
    }
  };

  const http = createHttpApp({ ctx, readiness });
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
    start: async () => {
      await keys.load(); // create the first signing key now rather than on the first sign-in
      if (config.mailCatcher) {
        catcher = await startMailCatcher({ store, clock, logger, host: config.mailCatcherHost, port: config.mailCatcherPort, retention: config.mailCatcherRetention, maxAgeMs: config.mailCatcherMaxAgeMs });
        stoppers.push(() => catcher!.close());
      }
      const transport = createTransport();
      if (transport) {
        const w = newWorker(transport);
        worker = w;
        stoppers.push(async () => { await w.stop(); transport.close(); });
        w.start();
        logger.info("mail delivery", { via: transport.description });
      } else {
        logger.warn("no SMTP relay configured and the mail catcher is off: mail stays queued in the outbox");
      }
      const purge = setInterval(() => {
        purgeExpiredTokens(ctx).catch((err) => logger.warn("token purge failed", { err }));
        purgeExpiredLimits(ctx).catch((err) => logger.warn("rate-limit purge failed", { err }));
      }, 3_600_000);
      purge.unref();
      stoppers.push(async () => clearInterval(purge));
    },
    beginShutdown: () => { shuttingDown = true; },
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
    close: async () => {
      if (closed) return;
      closed = true;
      shuttingDown = true;
      for (const stop of stoppers.reverse()) await stop().catch((err) => logger.error("stop failed", { err }));
      if (!overrides.store) await store.close();
    },
  };
}

/** Template overrides; a missing folder or a bad template is a configuration error naming the setting. */
function loadTemplateOverridesOrFail(dir: string | undefined): ReturnType<typeof loadTemplateOverrides> {
  try { return loadTemplateOverrides(dir); } catch (err) { throw new ConfigError(`invalid value for mailTemplatesDir (--mail-templates-dir): ${(err as Error).message}`); }
}
