import type BetterSqlite3 from "better-sqlite3";
import {
  CompiledQuery, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler,
  type DatabaseConnection, type DatabaseIntrospector, type Dialect, type DialectAdapter, type Driver, type Kysely, type QueryCompiler, type QueryResult,
} from "kysely";
import type { RunResult, SqliteWriterThread } from "./sqlite-writer.js";

/**
 * A Kysely dialect over two SQLite connections to one WAL file: reads outside a transaction run
 * synchronously on the main thread's connection; transactions and every write go to the writer
 * thread (sqlite-writer-source.ts), so the commit's fsync (synchronous=FULL) never blocks the event
 * loop and concurrent transactions share one commit. WAL lets the reader proceed during a write; a
 * read sees every transaction whose promise has resolved, because that happens only after the commit.
 */
export class SplitSqliteDialect implements Dialect {
  constructor(private reader: BetterSqlite3.Database, private writer: SqliteWriterThread) {}
  createAdapter(): DialectAdapter { return new SqliteAdapter(); }
  createDriver(): Driver { return new SplitDriver(this.reader, this.writer); }
  createQueryCompiler(): QueryCompiler { return new SqliteQueryCompiler(); }
  createIntrospector(db: Kysely<any>): DatabaseIntrospector { return new SqliteIntrospector(db); }
}

type Statement = BetterSqlite3.Statement<unknown[], Record<string, unknown>>;

class SplitDriver implements Driver {
  // Statements are reused across requests: better-sqlite3 statements are reusable, keyed by SQL text.
  private cache = new Map<string, Statement>();
  constructor(private reader: BetterSqlite3.Database, readonly writer: SqliteWriterThread) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> { return new SplitConnection(this); }
  async beginTransaction(conn: DatabaseConnection): Promise<void> { await (conn as SplitConnection).begin(); }
  async commitTransaction(conn: DatabaseConnection): Promise<void> { await (conn as SplitConnection).commit(); }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> { await (conn as SplitConnection).rollback(); }
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {
    this.cache.clear();
    await this.writer.close();
    this.reader.close();
  }

  read(sql: string, params: readonly unknown[]): QueryResult<any> {
    let stmt = this.cache.get(sql);
    if (!stmt) {
      stmt = this.reader.prepare(sql) as Statement;
      if (this.cache.size > 500) this.cache.clear();
      this.cache.set(sql, stmt);
    }
    return { rows: stmt.all(...params) };
  }

  /** A data-changing statement outside a transaction: its own logical transaction in the writer. */
  async writeOne(sql: string, params: readonly unknown[]): Promise<QueryResult<any>> {
    const { writer } = this;
    await writer.lock.acquire();
    const a = writer.expectAck();
    a.durable.catch(() => {});
    let reply: Promise<RunResult>;
    try {
      reply = writer.send({ op: "single", sql, params, ack: a.ack, more: writer.lock.waiting > 0 });
    } finally {
      writer.lock.release(); // posted: the next writer's messages queue behind it
    }
    let r: RunResult;
    try {
      r = await reply;
    } catch (err) {
      writer.forget(a.ack);
      throw err;
    }
    await a.durable;
    return toResult(r);
  }

  /** DDL, pragmas and the like: outside any transaction, in the writer. */
  async writeBare(sql: string, params: readonly unknown[]): Promise<QueryResult<any>> {
    await this.writer.lock.acquire();
    try {
      return toResult(await this.writer.send({ op: "bare", sql, params }));
    } finally {
      this.writer.lock.release();
    }
  }
}

const READ = /^\s*select\b/i;
const DML = /^\s*(insert|update|delete|replace|with)\b/i;

class SplitConnection implements DatabaseConnection {
  private inTx = false;
  /** Holds the writer lock (between begin and commit/rollback); a failed commit must not release it twice. */
  private holding = false;
  constructor(private driver: SplitDriver) {}

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTx) return toResult(await this.driver.writer.send({ op: "run", sql: q.sql, params: q.parameters }));
    if (READ.test(q.sql)) return this.driver.read(q.sql, q.parameters);
    if (DML.test(q.sql)) return this.driver.writeOne(q.sql, q.parameters);
    return this.driver.writeBare(q.sql, q.parameters);
  }

  async *streamQuery<R>(q: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield await this.executeQuery<R>(q);
  }

  /** Opens the transaction without waiting for the worker: a failure comes back on its first statement. */
  async begin(): Promise<void> {
    const w = this.driver.writer;
    await w.lock.acquire();
    try {
      w.post({ op: "begin" });
    } catch (err) {
      w.lock.release();
      throw err;
    }
    this.holding = true;
    this.inTx = true;
  }

  /**
   * Releases the savepoint and lets the next writer in at once (the worker handles messages in
   * order), then waits until the batch holding this transaction is committed and durable.
   */
  async commit(): Promise<void> {
    const w = this.driver.writer;
    this.inTx = false;
    const a = w.expectAck();
    try {
      w.post({ op: "release", ack: a.ack, more: w.lock.waiting > 0 });
    } catch (err) {
      w.forget(a.ack);
      this.unlock();
      throw err;
    }
    this.unlock();
    await a.durable;
  }

  async rollback(): Promise<void> {
    this.inTx = false;
    if (!this.holding) return; // the commit went through; its batch failed later
    try {
      this.driver.writer.post({ op: "rollback" });
    } finally {
      this.unlock();
    }
  }

  private unlock(): void {
    if (!this.holding) return;
    this.holding = false;
    this.driver.writer.lock.release();
  }
}

function toResult<R>(r: RunResult): QueryResult<R> {
  if (r.changes === undefined) return { rows: r.rows as R[] };
  return {
    rows: r.rows as R[],
    numAffectedRows: BigInt(r.changes),
    insertId: r.lastInsertRowid === undefined ? undefined : BigInt(r.lastInsertRowid),
  };
}
