import Database from "better-sqlite3";

/**
 * Whether any process (this one included) has the SQLite database open, by trying to take
 * SQLite's own exclusive lock without waiting.
 *
 * Why this works, also after a crash: a connection in WAL mode keeps a SHARED lock on the database
 * file (a POSIX advisory lock) for as long as it is open, and `serve` reads the database at start.
 * Such locks belong to the process and the kernel drops them when it dies, SIGKILL included, so
 * there is no stale lock file or heartbeat to clean up. SQLite tracks the locks of connections in
 * the same process itself, so an in-process server is seen too.
 *
 * Returns undefined when the database is free, or the error text when something holds it.
 * Note: any open connection counts (a running `tail-mail --wait` too), which is what a restore needs.
 */
export function probeDatabaseHolder(file: string): string | undefined {
  const db = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma("locking_mode = EXCLUSIVE");
    db.exec("begin exclusive");
    db.exec("commit");
    // Fold any committed WAL content into the file while we hold the lock, so nothing is left in a
    // -wal that a later open could replay against a different database file.
    db.pragma("wal_checkpoint(TRUNCATE)");
    return undefined;
  } catch (err) {
    const e = err as { code?: string; message: string };
    if (e.code === "SQLITE_BUSY" || e.code === "SQLITE_LOCKED") return e.message;
    throw err;
  } finally {
    db.close();
  }
}
