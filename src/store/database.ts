import Database from "better-sqlite3";
import { CompiledQuery, Kysely, PostgresDialect } from "kysely";
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import type PgModule from "pg";
import type { DB } from "./schema.js";
import { loadNativeBinding } from "../native/addons.js";
import { maskUrlPassword } from "../util/mask-url.js";
import { ensurePrivateFile } from "../util/private-files.js";
import { adaptClient, readConnectionMode, type PgConnectionMode } from "./pg-connection.js";
import { runTransaction } from "./outage.js";
import { withAfterCommit } from "./after-commit.js";
import { SyncedSqliteDialect } from "./sqlite-driver.js";
import { WalCheckpointer } from "./wal-checkpointer.js";
import { WalSync } from "./wal-sync.js";

export type Dialect = "sqlite" | "postgres";

/** An open store: the Kysely handle plus the few things that differ between SQLite and PostgreSQL. */
export interface Store {
  db: Kysely<DB>;
  dialect: Dialect;
  /** Where it points, with any password masked (for messages). */
  description: string;
  /** SQLite only: the database file (absent for `:memory:`), for the disk checks of store/health.ts. */
  file?: string;
  /** PostgreSQL only: the schema named by `?schema=` (the migrator creates it when missing). */
  pgSchema?: string;
  /** PostgreSQL only: direct, or through a transaction-mode pooler (pg-connection.ts); may change once, when a pooler is detected. */
  pgMode?: Readonly<PgConnectionMode>;
  /**
   * Runs `fn` in one write transaction. On SQLite it is `BEGIN IMMEDIATE` (takes the write lock up
   * front, so a read-then-write never fails with SQLITE_BUSY halfway); on PostgreSQL a READ COMMITTED
   * transaction: code inside relies on conditional updates and unique indexes, not on isolation.
   * Never hash a password or call the network inside it: it holds the only SQLite connection.
   */
  writeTx<T>(fn: (tx: Kysely<DB>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** A file path (SQLite) or postgres:// URL. A `schema` query parameter selects a PostgreSQL schema. */
  url: string;
  sqliteSynchronous?: "FULL" | "NORMAL";
  /**
   * How long an operation waits for the database before failing with a busy error (503), in ms:
   * on SQLite for another process's write lock, on PostgreSQL for a free pooled connection.
   */
  busyTimeoutMs?: number;
  /** Largest PostgreSQL pool. */
  poolSize?: number;
  /** SQLite: fail instead of creating the file (for readers such as tail-mail). */
  mustExist?: boolean;
  /** PostgreSQL: called once if a transaction-mode pooler the URL did not name is detected (to log how to say it). */
  onPoolerDetected?(): void;
}

/**
 * pg, loaded the first time a PostgreSQL database is opened: a SQLite server never needs it. A
 * require, not an import(), because opening a store is synchronous (the bundle's and the single
 * executable's own require; the sources' under the tests).
 */
let pgModule: typeof PgModule | undefined;
function loadPg(): typeof PgModule {
  if (pgModule) return pgModule;
  const pg = (typeof require === "function" ? require("pg") : createRequire(import.meta.url)("pg")) as typeof PgModule;
  // int8 (bigint) columns hold epoch milliseconds, well inside a double's exact range.
  pg.types.setTypeParser(20, (v: string) => Number(v));
  return (pgModule = pg);
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** Opens the database the URL names. SQLite files are created on first use. */
export function openStore(opts: OpenOptions): Store {
  return isPostgresUrl(opts.url) ? openPostgres(opts) : openSqlite(opts);
}

/** The file path a SQLite database URL names (`sqlite:` prefixes removed). */
export function sqliteFilePath(url: string): string {
  return url.replace(/^sqlite:(\/\/)?/i, "");
}

/**
 * The real file a SQLite path names, symlinks resolved: SQLite keeps the -wal and -shm files beside
 * the real file, so a database reached through a link is opened (and locked) as that file. A path
 * that does not exist yet (a new database) is taken as given.
 */
export function realSqliteFile(file: string): string {
  if (file === ":memory:") return file;
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function openSqlite(opts: OpenOptions): Store {
  const file = realSqliteFile(sqliteFilePath(opts.url));
  // The busy timeout comes first: switching a fresh file to WAL takes a lock, and two processes
  // starting at once (two `authsvc migrate`) must wait for each other, not fail with SQLITE_BUSY.
  // nativeBinding: in an npm install undefined (the package finds its own); in the single executable
  // the addon extracted from it (src/native/addons.ts), already loaded (the executable's require
  // loads built-in modules only). better-sqlite3 takes a module or a path; its types know the path.
  const timeout = opts.busyTimeoutMs ?? 5000;
  const nativeBinding = loadNativeBinding("better-sqlite3") as string | undefined;
  const memory = file === ":memory:";
  // The file holds password hashes and signing keys: created 0600 (its -wal/-shm follow), whatever the umask.
  if (!memory && opts.mustExist !== true) ensurePrivateFile(file);
  const raw = new Database(file, { timeout, fileMustExist: opts.mustExist === true, nativeBinding });
  const sync = opts.sqliteSynchronous ?? "FULL";
  raw.pragma("journal_mode = WAL");
  // SQLite itself always runs NORMAL on a file: FULL's fsync at every commit would run on the event
  // loop. Under FULL the dialect waits for an fdatasync of the WAL off the loop instead (wal-sync.ts).
  raw.pragma(`synchronous = ${memory ? sync : "NORMAL"}`);
  raw.pragma("foreign_keys = ON");
  // Read the pragmas back: an acknowledged write must survive a power cut (WAL + the WAL sync), and
  // cascades must work. A filesystem that cannot do WAL would silently weaken both.
  const mode = String(raw.pragma("journal_mode", { simple: true })).toLowerCase();
  const syncNow = Number(raw.pragma("synchronous", { simple: true }));
  const fk = Number(raw.pragma("foreign_keys", { simple: true }));
  if (!memory && mode !== "wal") { raw.close(); throw new Error(`SQLite refused WAL mode for ${file} (journal_mode=${mode})`); }
  if (syncNow !== (sync === "FULL" && memory ? 2 : 1) || fk !== 1) { raw.close(); throw new Error(`SQLite pragmas not applied for ${file}`); }
  if (memory) {
    const db = new Kysely<DB>({ dialect: new SyncedSqliteDialect(raw, {}) });
    return { db, dialect: "sqlite", description: file, writeTx: (fn) => withAfterCommit((body) => db.transaction().execute(body), fn), close: () => db.destroy() };
  }
  // Checkpoints (an fsync of the WAL and of the database each) run in a worker thread; this
  // connection's own automatic checkpoint stays as a far-off safety net (10,000 pages, ~40 MB).
  raw.pragma("wal_autocheckpoint = 10000");
  const checkpointer = new WalCheckpointer(file, timeout);
  let walSync: WalSync | undefined;
  if (sync === "FULL") {
    // The WAL file appears with the first read; it stays (same inode) while this connection is open.
    raw.prepare("select count(*) from sqlite_master").get();
    try {
      walSync = new WalSync(`${file}-wal`);
    } catch (err) {
      raw.close();
      throw err;
    }
  }
  const db = new Kysely<DB>({ dialect: new SyncedSqliteDialect(raw, { walSync, checkpointer }) });
  return { db, dialect: "sqlite", description: file, file, writeTx: (fn) => withAfterCommit((body) => db.transaction().execute(body), fn), close: () => db.destroy() };
}

function openPostgres(opts: OpenOptions): Store {
  const url = new URL(opts.url);
  const schema = url.searchParams.get("schema") ?? undefined;
  url.searchParams.delete("schema");
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/i.test(schema)) throw new Error(`invalid schema name in database URL: ${schema}`);
  const mode = readConnectionMode(url);
  const pg = loadPg();
  const pool = new pg.Pool({
    connectionString: url.toString(),
    max: opts.poolSize ?? 10,
    connectionTimeoutMillis: opts.busyTimeoutMs ?? 5000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client that loses its server must not crash the process.
  pool.on("error", () => {});
  // Nor may a checked-out one: pg-pool listens on a client only while it is idle, and a client that
  // is in use (or being released) when the server goes away emits 'error' with nobody listening,
  // which ends the process. With this listener the error stays with the client: its query fails,
  // the request gets a 503, and the pool drops the dead client when it comes back (not queryable).
  pool.on("connect", (client) => { client.on("error", () => {}); });
  // Hot-path queries (prepared.ts) go out as named statements on a direct connection; behind a
  // transaction-mode pooler unnamed, with the schema set per transaction (pg-connection.ts).
  pool.on("connect", (client) => adaptClient(client, mode, schema, () => opts.onPoolerDetected?.()));
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({
      pool,
      // A session SET: only where the session is ours (behind a transaction-mode pooler it would
      // stay on a server connection other clients get next; adaptClient sets it per transaction).
      onCreateConnection: schema
        ? async (conn) => { if (mode.pooler === "none") await conn.executeQuery(CompiledQuery.raw(`set search_path to "${schema}"`)); }
        : undefined,
    }),
  });
  return {
    db,
    dialect: "postgres",
    description: maskUrlPassword(opts.url),
    pgSchema: schema,
    pgMode: mode,
    // A connection lost during COMMIT leaves the outcome unknown: say so (store/outage.ts).
    writeTx: (fn) => withAfterCommit((outer) => runTransaction((body) => db.transaction().execute(body), outer), fn),
    close: () => db.destroy(),
  };
}

/** True when the error is a unique-constraint violation (SQLite or PostgreSQL 23505). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || e?.code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/**
 * True when the database stayed locked or overloaded past the busy timeout (answer 503, not 500):
 * SQLite busy/locked with any extended code (SQLITE_BUSY_RECOVERY, SQLITE_LOCKED_SHAREDCACHE…),
 * PostgreSQL lock timeout or cancelled statement, and a PostgreSQL pool with no free connection in
 * time (security bar R10: pool exhaustion is a 503); pg-pool gives that error no code, only its text.
 */
export function isBusyError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e?.code === "string" && /^SQLITE_(BUSY|LOCKED)(_|$)|^(55P03|57014)$/.test(e.code)) return true;
  return err instanceof Error && e.message === "timeout exceeded when trying to connect";
}
