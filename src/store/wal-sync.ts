import { closeSync, fdatasync, fsyncSync, openSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Makes SQLite commits durable off the event loop, shared among commits ("group sync").
 *
 * The connection runs with `synchronous=NORMAL` in WAL mode: a commit only write()s its frames to
 * the `-wal` file (they survive SIGKILL: they are in the kernel), and SQLite itself syncs the WAL
 * before every checkpoint. For power loss, a commit is acknowledged only after an fdatasync of the
 * WAL file that STARTED after the commit finished; the fdatasync runs on libuv's thread pool. Every
 * commit that completed before a sync started is covered by it, so concurrent commits share one.
 *
 * The fd stays valid: SQLite keeps the WAL file (same inode, rewritten or truncated in place after
 * checkpoints) while any connection is open, and this one belongs to an open connection.
 */
export class WalSync {
  private fd: number | undefined;
  /** The sync under way, if any (it covers every commit made before it started). */
  private running: Promise<void> | undefined;
  /** The sync that starts when `running` ends: it covers commits made while `running` was under way. */
  private queued: Promise<void> | undefined;
  /** After a failed fsync the kernel may have dropped dirty pages: nothing later may be acknowledged. */
  private failure: Error | undefined;

  /** Opens the WAL file (it must exist) and syncs its directory entry once. */
  constructor(walPath: string) {
    this.fd = openSync(walPath, "r+");
    syncDirectory(dirname(walPath));
  }

  /** Resolves once a sync that began after this call has finished; call it right after a commit. */
  afterCommit(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (!this.running) return this.start();
    this.queued ??= this.running.then(() => this.startQueued(), () => this.startQueued());
    return this.queued;
  }

  /** Waits for the syncs under way, then closes the file. */
  async close(): Promise<void> {
    await Promise.allSettled([this.running, this.queued]);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private startQueued(): Promise<void> {
    this.queued = undefined;
    return this.start();
  }

  private start(): Promise<void> {
    const fd = this.fd;
    if (this.failure) return Promise.reject(this.failure);
    if (fd === undefined) return Promise.reject(new Error("the store is closed"));
    const p = new Promise<void>((resolve, reject) => {
      fdatasync(fd, (err) => {
        if (this.running === p) this.running = undefined;
        if (err) { this.failure ??= Object.assign(new Error(`fdatasync of the SQLite WAL failed: ${err.message}`), { code: err.code }); reject(this.failure); }
        else resolve();
      });
    });
    this.running = p;
    return p;
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
