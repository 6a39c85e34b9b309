import { closeSync, openSync } from "node:fs";
import Database from "better-sqlite3";
import { loadNativeBinding } from "../native/addons.js";

/** The lock file beside a SQLite database that one running `serve` holds. */
export function serveLockPath(file: string): string {
  return `${file}-serve.lock`;
}

/**
 * One `serve` per SQLite file. Two would each run an outbox, a webhook worker, the purge and the
 * backups over one file, and each would issue sessions as if it were alone. The running server
 * holds SQLite's exclusive lock on a small file beside the database for as long as it runs: a
 * POSIX advisory lock that the kernel drops when the process ends, SIGKILL included, so nothing
 * stale is left to clean up (the same mechanism `restore` uses to see an open server,
 * ops/database-lock.ts). Other commands (tail-mail, users, backup) open the database as usual.
 *
 * Returns the release function, or undefined when another process holds the lock.
 */
export function holdServeLock(file: string): (() => void) | undefined {
  // Made 0600 like the database (it holds only a pid, but sits beside files that must be private).
  closeSync(openSync(serveLockPath(file), "a", 0o600));
  // In the single executable the addon comes from the executable (src/native/addons.ts), as for the database itself.
  const nativeBinding = loadNativeBinding("better-sqlite3") as string | undefined;
  const db = new Database(serveLockPath(file), { timeout: 0, nativeBinding });
  try {
    db.pragma("locking_mode = EXCLUSIVE");
    // The first write takes the exclusive lock; in exclusive locking mode it is kept until close.
    db.exec("begin exclusive; create table if not exists serve_lock (pid integer); delete from serve_lock; insert into serve_lock values (" + process.pid + "); commit");
    return () => db.close();
  } catch (err) {
    db.close();
    const code = (err as { code?: string }).code;
    if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") return undefined;
    throw err;
  }
}
