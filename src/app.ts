import type { App as H3App } from "h3";
import { sql } from "kysely";
import type { Config } from "./config.js";
import type { CoreContext } from "./core/context.js";
import { createDummyHash } from "./core/passwords.js";
import { createKeyRing } from "./core/signing-keys.js";
import { createHttpApp } from "./http/app.js";
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
}

/** Composition root: builds db, clock, logger, services and the HTTP app from a config. */
export async function createApp(config: Readonly<Config>, overrides: AppOverrides = {}): Promise<App> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const clock = overrides.clock ?? systemClock;
  const store = overrides.store ?? openStore({ url: config.database, sqliteSynchronous: config.sqliteSynchronous });
  const dummyHash = createDummyHash(config.bcryptCost);
  dummyHash.catch(() => {});
  const keys = createKeyRing({ config, store, clock, logger });
  const ctx: CoreContext = { config, store, clock, logger, dummyHash, keys };

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
    },
    beginShutdown: () => { shuttingDown = true; },
    close: async () => {
      if (closed) return;
      closed = true;
      shuttingDown = true;
      for (const stop of stoppers.reverse()) await stop().catch((err) => logger.error("stop failed", { err }));
      if (!overrides.store) await store.close();
    },
  };
}
