import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { resolveNativeBinding } from "../native/addons.js";
import { HELPER_THREAD_LIMITS } from "../util/thread-limits.js";

// Set by scripts/build-binary.mjs only: better-sqlite3's JavaScript bundled as one script that
// defines the global `__authsvcBetterSqlite3`, prepended to the worker's source in the executable
// (which has no better-sqlite3 package on disk for the worker to require).
declare const __BETTER_SQLITE3_BUNDLE__: string | undefined;
const bundledBetterSqlite3 = typeof __BETTER_SQLITE3_BUNDLE__ === "string" ? __BETTER_SQLITE3_BUNDLE__ : undefined;

/** Commits between two checkpoints (SQLite's own default is every 1,000 pages, i.e. ~100 sign-ups). */
const COMMITS_PER_CHECKPOINT = 50;

// A string on purpose: a bundled CLI or a single executable has no worker file at a known path.
// synchronous=NORMAL makes SQLite sync the WAL before copying frames into the database and the
// database after, so a checkpoint never makes anything less durable; it runs here, off the event loop.
const SOURCE = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const Database = typeof __authsvcBetterSqlite3 !== "undefined" ? __authsvcBetterSqlite3 : require(workerData.module);
const db = new Database(workerData.file, { timeout: workerData.timeout, fileMustExist: true, nativeBinding: workerData.nativeBinding });
db.pragma("synchronous = NORMAL");
db.pragma("wal_autocheckpoint = 0");
parentPort.on("message", (m) => {
  if (m === "close") { db.close(); parentPort.close(); return; }
  try { db.pragma("wal_checkpoint(PASSIVE)"); } catch { /* busy or locked: the next round retries */ }
  parentPort.postMessage("done");
});
`;

/**
 * Runs SQLite's WAL checkpoints on a connection in a worker thread: a checkpoint copies the WAL into
 * the database and fsyncs both (milliseconds), which on the main connection would stall every
 * request. The main connection's own automatic checkpoint is pushed far out (a safety net only).
 * The worker starts at the first checkpoint, so short CLI commands never start it, and it never
 * keeps the process alive.
 */
export class WalCheckpointer {
  private worker: Worker | undefined;
  private commits = 0;
  private running = false;
  private failed = false;

  constructor(private file: string, private timeoutMs: number) {}

  /** Counts one commit; every COMMITS_PER_CHECKPOINT commits asks the worker for a checkpoint. */
  noteCommit(): void {
    if (++this.commits < COMMITS_PER_CHECKPOINT || this.running || this.failed) return;
    this.commits = 0;
    this.running = true;
    this.start().postMessage("checkpoint");
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (!w) return;
    const exited = new Promise((resolve) => w.once("exit", resolve));
    // Held until it exits: an unref'd thread would let a process with nothing else to do end
    // here, with close() (and whatever the caller does after it) never finishing.
    w.ref();
    w.postMessage("close");
    await exited;
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const module = bundledBetterSqlite3 ? undefined : createRequire(import.meta.url).resolve("better-sqlite3");
    const w = new Worker(bundledBetterSqlite3 ? `${bundledBetterSqlite3}\n${SOURCE}` : SOURCE, {
      eval: true,
      workerData: { module, nativeBinding: resolveNativeBinding("better-sqlite3"), file: this.file, timeout: this.timeoutMs },
      resourceLimits: HELPER_THREAD_LIMITS,
    });
    w.unref();
    w.on("message", () => { this.running = false; });
    // Without the worker the main connection's automatic checkpoint still bounds the WAL.
    w.on("error", () => { this.failed = true; this.running = false; });
    w.on("exit", () => { if (this.worker === w) this.worker = undefined; this.running = false; });
    this.worker = w;
    return w;
  }
}
