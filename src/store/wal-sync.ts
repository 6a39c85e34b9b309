import { closeSync, fsyncSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { Worker } from "node:worker_threads";
import { HELPER_THREAD_LIMITS } from "../util/thread-limits.js";

// The syncs run in a thread of their own, not on libuv's thread pool: bcrypt works there
// (@node-rs/bcrypt), and a sync queued behind a backlog of password hashes would hold every write
// for as long as the backlog lasts. A string on purpose: a bundle has no worker file on disk.
const SOURCE = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const { fdatasyncSync } = require("node:fs");
parentPort.on("message", () => {
  try { fdatasyncSync(workerData.fd); parentPort.postMessage(null); }
  catch (e) { parentPort.postMessage({ message: String(e && e.message || e), code: e && e.code }); }
});
`;

/**
 * Makes SQLite commits durable off the event loop, shared among commits ("group sync").
 *
 * The connection runs with `synchronous=NORMAL` in WAL mode: a commit only write()s its frames to
 * the `-wal` file (they survive SIGKILL: they are in the kernel), and SQLite itself syncs the WAL
 * before every checkpoint. For power loss, a commit is acknowledged only after an fdatasync of the
 * WAL file that STARTED after the commit finished, off the event loop. Every
 * commit that completed before a sync started is covered by it, so concurrent commits share one.
 * The fdatasync runs in a small worker thread of its own (one message there and back per sync).
 *
 * The fd stays valid: SQLite keeps the WAL file (same inode, rewritten or truncated in place after
 * checkpoints) while any connection is open, and this one belongs to an open connection.
 */
type Waiter = { resolve: () => void; reject: (err: Error) => void };

/**
 * The sync thread ends after this long without a commit and starts again at the next one: a thread
 * is a V8 instance of its own (about 12 MB resident), which a server idle on a small machine should
 * not hold; the next commit pays the thread's start (milliseconds). As core/hash-pool.ts's threads.
 */
export const IDLE_SYNC_THREAD_MS = 30_000;
type SyncError = { message: string; code?: string };

export class WalSync {
  private fd: number | undefined;
  private worker: Worker | undefined;
  /** A sync is in flight; it covers the commits in `covered`. */
  private syncing = false;
  private covered: Waiter[] = [];
  /** Commits made while a sync was in flight: the next sync (started when it ends) covers them. */
  private next: Waiter[] = [];
  /** After a failed fsync the kernel may have dropped dirty pages: nothing later may be acknowledged. */
  private failure: Error | undefined;
  private idle: (() => void) | undefined;
  private idleTimer: NodeJS.Timeout | undefined;

  /** Opens the WAL file (it must exist) and syncs its directory entry once. */
  constructor(walPath: string, private readonly idleMs = IDLE_SYNC_THREAD_MS) {
    this.fd = openSync(walPath, "r+");
    syncDirectory(dirname(walPath));
  }

  /** Whether the sync thread is running (it ends after idleMs without a commit). */
  get threadRunning(): boolean {
    return this.worker !== undefined;
  }

  /** Resolves once a sync that began after this call has finished; call it right after a commit. */
  afterCommit(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.fd === undefined) return Promise.reject(new Error("the store is closed"));
    return new Promise<void>((resolve, reject) => {
      if (this.syncing) { this.next.push({ resolve, reject }); return; }
      this.covered.push({ resolve, reject });
      this.start();
    });
  }

  /** Waits for the syncs under way, then stops the thread and closes the file. */
  async close(): Promise<void> {
    if (this.syncing) await new Promise<void>((resolve) => { this.idle = resolve; });
    clearTimeout(this.idleTimer);
    const fd = this.fd;
    this.fd = undefined;
    this.worker?.ref(); // as WalCheckpointer.close: the process must not end before the thread has
    await this.worker?.terminate();
    this.worker = undefined;
    if (fd !== undefined) closeSync(fd);
  }

  private start(): void {
    const fd = this.fd!;
    this.syncing = true;
    const w = this.worker ??= this.startWorker(fd);
    w.ref(); // commits are waiting for this reply: keep the process alive for it
    w.postMessage(null);
  }

  /** A sync ended: settle what it covered; start the next one for the commits that came meanwhile. */
  private finish(err: SyncError | null): void {
    if (!this.syncing) return;
    const done = this.covered;
    this.covered = this.next;
    this.next = [];
    this.syncing = false;
    if (err) this.failure ??= Object.assign(new Error(`fdatasync of the SQLite WAL failed: ${err.message}`), { code: err.code });
    if (this.failure) {
      for (const w of [...done, ...this.covered]) w.reject(this.failure);
      this.covered = [];
    } else {
      for (const w of done) w.resolve();
    }
    if (this.covered.length > 0) return this.start();
    this.worker?.unref(); // nothing awaited: let a CLI command exit
    this.idle?.();
    this.idle = undefined;
    this.endWhenIdle();
  }

  /**
   * Ends the thread if no sync starts within IDLE_SYNC_THREAD_MS (the next commit starts another).
   * One timer, re-armed after every sync (Timeout.refresh: nothing allocated on the commit path).
   */
  private endWhenIdle(): void {
    if (!this.worker || this.failure) return;
    this.idleTimer ??= setTimeout(() => {
      const w = this.worker;
      if (!w || this.syncing) return; // a sync under way re-arms the timer when it ends
      this.worker = undefined; // first: its exit is then not a failure (startWorker's "exit")
      void w.terminate();
    }, this.idleMs).unref();
    this.idleTimer.refresh();
  }

  private startWorker(fd: number): Worker {
    const w = new Worker(SOURCE, { eval: true, workerData: { fd }, resourceLimits: HELPER_THREAD_LIMITS });
    w.on("message", (err: SyncError | null) => this.finish(err));
    w.on("error", (err) => this.finish({ message: err.message }));
    w.on("exit", (code) => {
      if (this.worker !== w) return;
      this.worker = undefined;
      this.finish({ message: `the sync thread exited (${code})` });
    });
    return w;
  }
}

/** A new WAL file's directory entry must be durable too, or a power cut could lose the whole file. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some platforms (Windows) cannot open or sync a directory; they have no such entry to lose.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
