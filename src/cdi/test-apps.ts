import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Config } from "../config/types.js";
import type { CoreContext } from "../core/context.js";
import { createDeferredWork } from "../core/deferred-work.js";
import { createKeyRing } from "../core/signing-keys.js";
import { isPostgresUrl, openStore, sqliteFilePath, type Store } from "../store/database.js";
import { migrateToLatest } from "../store/migrator.js";
import { CdiError } from "./http.js";

/**
 * The CDI's test mode (AUTHSVC_CDI_TEST_MODE, never in production): the apps supertokens-node's own
 * test suite makes, one per test (`PUT /recipe/multitenancy/app/v2`), each served under
 * `/cdi/appid-<id>/…` by its own context over its own empty SQLite database in a throwaway folder,
 * so nothing of the real app's data is shared and no test sees another's. The app's `coreConfig`
 * sets what the suite changes (token lifetimes, an API key); the rest is the server's config.
 * Open databases are capped: the least recently used one is closed and opened again on its next
 * request (the suite keeps every app it made).
 */
export interface TestApp {
  id: string;
  /** The digest of the key this app requires (`api_keys`), if any. */
  apiKey: Buffer | undefined;
  ctx(): Promise<CoreContext>;
}

export interface TestApps {
  /** Makes the app, or sets the config of an existing one; `createdNew` says which. */
  put(id: string, coreConfig: Record<string, unknown>): Promise<{ createdNew: boolean }>;
  get(id: string): TestApp | undefined;
  remove(id: string): Promise<boolean>;
}

interface Entry extends TestApp {
  file: string;
  config: Readonly<Config>;
  open: Promise<CoreContext> | undefined;
  usedAt: number;
}

const MAX_OPEN = 24;
const ID = /^[A-Za-z0-9_-]{1,128}$/;
const folders = new Set<string>();
let exitHookSet = false;

export const keyDigest = (s: string) => createHash("sha256").update(s, "utf8").digest();

export function createTestApps(parent: CoreContext): TestApps {
  const apps = new Map<string, Entry>();
  let folder: string | undefined;
  let template: Promise<string> | undefined;
  let counter = 0;
  let tick = 0;

  // The first app migrates an empty database once; every app after starts as a copy of it.
  const templateFile = () => template ??= (async () => {
    // Beside the server's own SQLite file (a throwaway one goes with its folder), else in the temporary folder.
    const main = parent.config.database;
    const near = isPostgresUrl(main) || sqliteFilePath(main) === ":memory:" ? tmpdir() : dirname(resolve(sqliteFilePath(main)));
    folder = mkdtempSync(join(near, "authsvc-cdi-apps-"));
    folders.add(folder);
    if (!exitHookSet) {
      exitHookSet = true;
      process.once("exit", () => { for (const f of folders) rmSync(f, { recursive: true, force: true }); });
    }
    const file = join(folder, "template.db");
    const store = openStore({ url: file });
    try {
      await migrateToLatest(store, parent.clock.now);
    } finally {
      await store.close();
    }
    return file;
  })();

  const open = (e: Entry): Promise<CoreContext> => {
    e.usedAt = ++tick;
    if (e.open) return e.open;
    const live = [...apps.values()].filter((a) => a.open && a !== e);
    if (live.length >= MAX_OPEN) {
      const oldest = live.reduce((a, b) => (a.usedAt <= b.usedAt ? a : b));
      void close(oldest);
    }
    e.open = (async () => {
      const store = openStore({ url: e.file, sqliteSynchronous: "NORMAL" });
      const { clock, logger } = parent;
      const keys = createKeyRing({ config: e.config, store, clock, logger });
      await keys.load();
      const ctx: CoreContext = { ...parent, config: e.config, store, keys, deferred: createDeferredWork(logger), outboxNotify: undefined };
      return ctx;
    })();
    e.open.catch(() => { e.open = undefined; });
    return e.open;
  };

  const close = async (e: Entry) => {
    const was = e.open;
    e.open = undefined;
    if (!was) return;
    const ctx: { deferred: { drain(): Promise<void> }; store: Store } = await was;
    await ctx.deferred.drain();
    await ctx.store.close();
  };

  return {
    async put(id, coreConfig) {
      if (!ID.test(id)) throw new CdiError(400, "Invalid characters in appId");
      const { config, apiKey } = appConfig(parent.config, coreConfig);
      const existing = apps.get(id);
      if (existing) {
        await close(existing);
        existing.config = config;
        existing.apiKey = apiKey;
        return { createdNew: false };
      }
      const from = await templateFile();
      const file = join(folder!, `app-${++counter}.db`);
      copyFileSync(from, file);
      const e: Entry = { id, file, config, apiKey, open: undefined, usedAt: 0, ctx: () => open(e) };
      apps.set(id, e);
      return { createdNew: true };
    },
    get: (id) => apps.get(id),
    async remove(id) {
      const e = apps.get(id);
      if (!e) return false;
      apps.delete(id);
      await close(e);
      for (const suffix of ["", "-wal", "-shm"]) rmSync(e.file + suffix, { force: true });
      return true;
    },
  };
}

/**
 * An app's config: the server's, with what the suite's `coreConfig` sets (the core's names and
 * units: seconds, minutes, milliseconds). Other keys are accepted and have no effect.
 */
function appConfig(base: Readonly<Config>, core: Record<string, unknown>): { config: Readonly<Config>; apiKey: Buffer | undefined } {
  const config: Config = { ...base };
  const num = (name: string): number | undefined => {
    const v = core[name];
    if (v === undefined || v === null) return undefined;
    const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
    if (!Number.isFinite(n) || n <= 0) throw new CdiError(400, `Invalid core config: ${name} must be a positive number`);
    return n;
  };
  const access = num("access_token_validity");
  if (access !== undefined) config.accessTokenLifetimeMs = access * 1000;
  const refresh = num("refresh_token_validity");
  if (refresh !== undefined) config.refreshTokenLifetimeMs = refresh * 60_000;
  const reset = num("password_reset_token_lifetime");
  if (reset !== undefined) config.passwordResetTokenLifetimeMs = reset;
  const verify = num("email_verification_token_lifetime");
  if (verify !== undefined) config.emailVerificationTokenLifetimeMs = verify;
  const keys = core.api_keys;
  if (keys !== undefined && keys !== null && typeof keys !== "string") throw new CdiError(400, "Invalid core config: api_keys must be a string");
  const first = typeof keys === "string" ? keys.split(",")[0].trim() : "";
  return { config, apiKey: first ? keyDigest(first) : undefined };
}
