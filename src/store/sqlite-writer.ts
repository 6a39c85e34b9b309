import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { resolveNativeBinding } from "../native/addons.js";
import { SQLITE_WRITER_SOURCE } from "./sqlite-writer-source.js";

// Set by scripts/build-binary.mjs only: better-sqlite3's JavaScript bundled as one script that
// defines the global `__authsvcBetterSqlite3`, prepended to the worker's source in the executable.
declare const __BETTER_SQLITE3_BUNDLE__: string | undefined;
const bundledBetterSqlite3 = typeof __BETTER_SQLITE3_BUNDLE__ === "string" ? __BETTER_SQLITE3_BUNDLE__ : undefined;

/**
 * How the SQLite writer thread is started. The defaults suit `npm`-installed runs (better-sqlite3
 * resolved next to this code). A bundle without node_modules (the single executable) calls
 * `configureSqliteWriter` once at start-up, before any store is opened:
 * - `module`: an absolute path the worker can `require()` to get better-sqlite3's JavaScript API
 *   (e.g. a file extracted from the executable's assets);
 * - `nativeBinding`: the absolute path of better_sqlite3.node, passed to `new Database(file, { nativeBinding })`
 *   in the worker just as the main thread passes it;
 * - `source`: replaces the worker script itself (a self-contained CommonJS string that speaks the
 *   protocol of sqlite-writer-source.ts), for a bundle that inlines better-sqlite3 into it.
 */
export interface SqliteWriterSetup { module?: string; nativeBinding?: string; source?: string }

let setup: SqliteWriterSetup = {};

/** Sets how writer threads start (see SqliteWriterSetup). Affects stores opened afterwards. */
export function configureSqliteWriter(next: SqliteWriterSetup): void {
  setup = { ...setup, ...next };
}

/** The native binding path configured for better-sqlite3, for the main-thread connection too. */
export function sqliteNativeBinding(): string | undefined {
  return setup.nativeBinding;
}

/** The path the worker requires; none when a custom `source` brings better-sqlite3 along. */
function resolveBetterSqlite3(): string | undefined {
  if (setup.module) return setup.module;
  if (setup.source || bundledBetterSqlite3) return undefined;
  return createRequire(import.meta.url).resolve("better-sqlite3");
}

export interface RunResult { rows: Record<string, unknown>[]; changes?: number; lastInsertRowid?: number | bigint }
type Reply = RunResult & { id: number; error?: { message: string; code?: string; name?: string } };
type Message = { op: string; sql?: string; params?: readonly unknown[]; ack?: number; more?: boolean };

/**
 * The main thread's handle on the writer thread: one request at a time per logical transaction
 * (callers hold `lock`), replies matched by id. The worker keeps the process alive only while a
 * reply is awaited, so a CLI command that forgets nothing still exits on its own.
 */
export class SqliteWriterThread {
  readonly lock = new WriterLock();
  private worker: Worker;
  private waiting = new Map<number, { resolve: (r: RunResult) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private failure: Error | undefined;

  constructor(opts: { file: string; timeoutMs: number; synchronous: "FULL" | "NORMAL" }) {
    // In the single executable the worker loads the addon file the main thread loaded (src/native).
    const source = setup.source ?? (bundledBetterSqlite3 ? `${bundledBetterSqlite3}\n${SQLITE_WRITER_SOURCE}` : SQLITE_WRITER_SOURCE);
    this.worker = new Worker(source, {
      eval: true,
      workerData: { module: resolveBetterSqlite3(), nativeBinding: setup.nativeBinding ?? resolveNativeBinding("better-sqlite3"), file: opts.file, timeout: opts.timeoutMs, synchronous: opts.synchronous },
    });
    // Start-up errors (no such file, bad binding) reject this and every later request.
    this.expect(0).catch(() => {});
    this.worker.on("message", (m: Reply) => this.settle(m));
    this.worker.on("error", (err) => this.fail(err));
    this.worker.on("exit", (code) => this.fail(new Error(`SQLite writer thread exited (${code})`)));
  }

  /**
   * Sends one message and waits for its reply. Messages are posted at once, even before the worker
   * has started (its port queues them), so they reach it in the order they were sent.
   */
  send(msg: Message): Promise<RunResult> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    const reply = this.expect(id);
    this.worker.postMessage({ ...msg, id });
    return reply;
  }

  /** Sends a message whose reply nobody awaits (release, rollback: their outcome comes by ack). */
  post(msg: Message): void {
    if (this.failure) throw this.failure;
    this.worker.postMessage({ ...msg, id: -1 });
  }

  /** A fresh id whose reply comes when the batch holding it is committed (durable) or failed. */
  expectAck(): { ack: number; durable: Promise<RunResult> } {
    const ack = this.nextId++;
    return { ack, durable: this.expect(ack) };
  }

  /** Drops an ack that will never come (its release failed). */
  forget(ack: number): void {
    if (this.waiting.delete(ack) && this.waiting.size === 0) this.worker.unref();
  }

  async close(): Promise<void> {
    if (!this.failure) await this.send({ op: "close" }).catch(() => {});
    this.failure ??= new Error("the store is closed");
    await this.worker.terminate();
  }

  private expect(id: number): Promise<RunResult> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.waiting.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => { this.waiting.set(id, { resolve, reject }); });
  }

  private settle(m: Reply): void {
    const w = this.waiting.get(m.id);
    if (!w) return;
    this.waiting.delete(m.id);
    if (this.waiting.size === 0) this.worker.unref();
    if (m.error) w.reject(Object.assign(new Error(m.error.message), { code: m.error.code, name: m.error.name ?? "Error" }));
    else w.resolve(m);
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
    this.worker.unref();
  }
}

/** A FIFO lock that also says whether anyone is queued (the writer commits a batch when no one is). */
export class WriterLock {
  private queue: (() => void)[] = [];
  private held = false;

  async acquire(): Promise<void> {
    if (!this.held) { this.held = true; return; }
    await new Promise<void>((resolve) => this.queue.push(resolve));
  }

  release(): void {
    const next = this.queue.shift();
    if (next) next(); else this.held = false;
  }

  get waiting(): number { return this.queue.length; }
}
