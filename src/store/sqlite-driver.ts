import type BetterSqlite3 from "better-sqlite3";
import {
  CompiledQuery, SelectQueryNode, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler,
  type DatabaseConnection, type DatabaseIntrospector, type Dialect, type DialectAdapter, type Driver, type Kysely, type QueryCompiler, type QueryResult,
} from "kysely";
import type { WalCheckpointer } from "./wal-checkpointer.js";
import type { WalSync } from "./wal-sync.js";

/** What a file database brings along; an in-memory one has neither. */
export interface SqliteDurability { walSync?: WalSync; checkpointer?: WalCheckpointer }

/**
 * A Kysely dialect over ONE better-sqlite3 connection on the main thread (statements take
 * microseconds), whose commits are made durable off the event loop by a shared WAL sync (wal-sync.ts).
 *
 * A commit never holds the connection while it waits for its sync: COMMIT runs, the connection is
 * released to the next caller, and only then does the caller await the sync that covers its commit
 * (in `releaseConnection`, which Kysely awaits before resolving the query or transaction).
 *
 * `PRAGMA synchronous` is answered per connection: SQLite itself always runs NORMAL; the level seen
 * through this dialect decides whether a commit waits for the sync (2 = FULL) or not (1 = NORMAL),
 * so code that relaxes durability for one write (rate-limit counters) keeps working unchanged.
 */
export class SyncedSqliteDialect implements Dialect {
  constructor(private raw: BetterSqlite3.Database, private durability: SqliteDurability) {}
  createAdapter(): DialectAdapter { return new SqliteAdapter(); }
  createDriver(): Driver { return new SyncedDriver(this.raw, this.durability); }
  createQueryCompiler(): QueryCompiler { return new SqliteQueryCompiler(); }
  createIntrospector(db: Kysely<any>): DatabaseIntrospector { return new SqliteIntrospector(db); }
}

class SyncedDriver implements Driver {
  private mutex = new FifoMutex();
  private conn: SyncedConnection;
  constructor(private raw: BetterSqlite3.Database, private durability: SqliteDurability) {
    this.conn = new SyncedConnection(raw, durability);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    await this.mutex.lock();
    return this.conn;
  }
  // IMMEDIATE takes the write lock up front: a read-then-write never fails with SQLITE_BUSY halfway
  // because another process wrote in between.
  async beginTransaction(c: DatabaseConnection): Promise<void> { await c.executeQuery(CompiledQuery.raw("begin immediate")); }
  async commitTransaction(c: DatabaseConnection): Promise<void> { await c.executeQuery(CompiledQuery.raw("commit")); }
  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    // SQLite may already have rolled back on its own (disk full, I/O error): keep the original error.
    if (this.raw.inTransaction) await c.executeQuery(CompiledQuery.raw("rollback"));
  }
  async savepoint(c: DatabaseConnection, name: string): Promise<void> { await c.executeQuery(CompiledQuery.raw(`savepoint "${name}"`)); }
  async rollbackToSavepoint(c: DatabaseConnection, name: string): Promise<void> { await c.executeQuery(CompiledQuery.raw(`rollback to "${name}"`)); }
  async releaseSavepoint(c: DatabaseConnection, name: string): Promise<void> { await c.executeQuery(CompiledQuery.raw(`release "${name}"`)); }

  /** Frees the connection first, then waits for the sync its commits need (if any). */
  async releaseConnection(): Promise<void> {
    const pending = this.conn.takePendingSync();
    this.mutex.unlock();
    if (pending) await pending;
  }

  async destroy(): Promise<void> {
    // The main connection closes last: as the last connection it checkpoints (synced) and removes the WAL.
    await this.durability.checkpointer?.close();
    await this.durability.walSync?.close();
    this.raw.close();
  }
}

type Statement = BetterSqlite3.Statement<unknown[], Record<string, unknown>>;
const PRAGMA_SYNCHRONOUS = /^\s*pragma\s+synchronous\s*(?:=\s*(\w+)\s*)?;?\s*$/i;
const LEVELS: Record<string, number> = { "0": 0, off: 0, "1": 1, normal: 1, "2": 2, full: 2, "3": 3, extra: 3 };

/** The prepared statements a connection keeps (docs/performance.md, "Bounded caches"): past this, the cache starts again. */
export const STATEMENT_CACHE_MAX = 500;

class SyncedConnection implements DatabaseConnection {
  // Kysely prepares every query anew; better-sqlite3 statements are reusable, so cache them by SQL text.
  private cache = new Map<string, Statement>();
  /** How many prepared statements it holds now (at most STATEMENT_CACHE_MAX + 1). */
  get preparedStatements(): number { return this.cache.size; }
  /** The level callers asked for (see SyncedSqliteDialect); FULL when a WAL sync is configured. */
  private level: number;
  private pendingSync: Promise<void> | undefined;
  /** Something was written since the last commit or rollback. */
  private dirty = false;

  private walSync: WalSync | undefined;
  private checkpointer: WalCheckpointer | undefined;

  constructor(private raw: BetterSqlite3.Database, durability: SqliteDurability) {
    this.walSync = durability.walSync;
    this.checkpointer = durability.checkpointer;
    this.level = this.walSync ? 2 : Number(raw.pragma("synchronous", { simple: true }));
  }

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    const m = PRAGMA_SYNCHRONOUS.exec(q.sql);
    if (m) return this.synchronousPragma(m[1]) as QueryResult<R>;
    const stmt = this.prepare(q.sql);
    if (stmt.reader) {
      const rows = stmt.all(...q.parameters) as R[];
      this.noteCommit(stmt); // INSERT … RETURNING is a reader that writes
      return { rows };
    }
    const { changes, lastInsertRowid } = stmt.run(...q.parameters);
    this.noteCommit(stmt);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  async *streamQuery<R>(q: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(q.query)) throw new Error("SQLite streams select queries only");
    for (const row of this.prepare(q.sql).iterate(...q.parameters)) yield { rows: [row as R] };
  }

  /** The sync the statements run since the connection was acquired wait for, if any. */
  takePendingSync(): Promise<void> | undefined {
    const p = this.pendingSync;
    this.pendingSync = undefined;
    return p;
  }

  private prepare(text: string): Statement {
    let stmt = this.cache.get(text);
    if (!stmt) {
      stmt = this.raw.prepare(text) as Statement;
      if (this.cache.size > STATEMENT_CACHE_MAX) this.cache.clear();
      this.cache.set(text, stmt);
    }
    return stmt;
  }

  /**
   * Once a statement leaves no transaction open after something was written (autocommit, COMMIT,
   * RELEASE of the outermost savepoint), that write is committed: under FULL it must wait for a sync
   * that starts after now. (SQLite calls COMMIT itself "readonly", hence the flag.) ROLLBACK commits nothing.
   */
  private noteCommit(stmt: Statement): void {
    if (!stmt.readonly) this.dirty = true;
    if (this.raw.inTransaction || !this.dirty) return;
    this.dirty = false;
    this.checkpointer?.noteCommit();
    if (!this.walSync || this.level < 2 || /^\s*rollback\b/i.test(stmt.source)) return;
    const sync = this.walSync.afterCommit();
    sync.catch(() => {}); // awaited in releaseConnection; a failure reaches the caller there
    this.pendingSync = sync;
  }

  private synchronousPragma(value: string | undefined): QueryResult<unknown> {
    if (!this.walSync) {
      // No WAL sync (in-memory database): the pragma goes to SQLite as written.
      const sql = value === undefined ? "pragma synchronous" : `pragma synchronous = ${value}`;
      const rows = this.raw.pragma(sql.replace(/^pragma\s+/, "")) as unknown[];
      if (value !== undefined) this.level = Number(this.raw.pragma("synchronous", { simple: true }));
      return { rows };
    }
    if (value === undefined) return { rows: [{ synchronous: this.level }] };
    const level = LEVELS[value.toLowerCase()];
    if (level === undefined) throw new Error(`unknown synchronous level: ${value}`);
    this.level = level;
    return { rows: [] };
  }
}

/** A FIFO lock around the single connection. */
class FifoMutex {
  private queue: (() => void)[] = [];
  private held = false;
  async lock(): Promise<void> {
    if (!this.held) { this.held = true; return; }
    await new Promise<void>((resolve) => this.queue.push(resolve));
  }
  unlock(): void {
    const next = this.queue.shift();
    if (next) next(); else this.held = false;
  }
}
