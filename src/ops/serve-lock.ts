import { closeSync, openSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import { loadNativeBinding } from "../native/addons.js";
import { realSqliteFile } from "../store/database.js";

/**
 * The lock file that one running `serve` holds, beside the database's real file: a symlink to it
 * names the same lock (and SQLite keeps the WAL beside the real file too).
 */
export function serveLockPath(file: string): string {
  return `${realSqliteFile(file)}-serve.lock`;
}

/**
 * A database file with a second name (a hard link) is refused: a lock beside one name cannot see a
 * server on the other, and SQLite keeps a -wal and -shm beside each name, so two servers through two
 * names would not see each other's writes (SQLite's "How To Corrupt", multiple links to one file).
 */
export class HardLinkedDatabaseError extends Error {}

function refuseHardLinks(file: string): void {
  let links: number;
  try { links = statSync(realSqliteFile(file)).nlink; } catch { return; }
  if (links > 1) {
    throw new HardLinkedDatabaseError(`${file} has ${links} names (hard links): two servers could run on it through two names, each with a write-ahead log of its own. ` +
      "Keep one name (remove the other link; a symlink is fine) and start again");
  }
}

/**
 * One `serve` per SQLite file. Two would each run an outbox, a webhook worker, the purge and the
 * backups over one file, and each would issue sessions as if it were alone. The running server
 * holds SQLite's exclusive lock on a small file beside the database for as long as it runs: a
 * POSIX advisory lock that the kernel drops when the process ends, SIGKILL included, so nothing
 * stale is left to clean up (the same mechanism `restore` uses to see an open server,
 * ops/database-lock.ts). Other commands (tail-mail, users, backup) open the database as usual.
 *
 * Returns the release function, or undefined when another process holds the lock; throws
 * HardLinkedDatabaseError for a file with more than one name.
 */
export function holdServeLock(file: string): (() => void) | undefined {
  refuseHardLinks(file);
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
