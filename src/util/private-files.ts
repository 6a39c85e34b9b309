import { chmodSync, closeSync, existsSync, fchmodSync, mkdirSync, openSync, statSync } from "node:fs";

/**
 * Files that hold password hashes, keys or backups are the operator's alone (0600, folders 0700).
 * Node and SQLite create files as 0644 & ~umask, so under a permissive umask (000, 022) every
 * local account could read them. These helpers set the mode explicitly instead of trusting the umask.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Creates `file` empty with mode 0600 when it does not exist yet; an existing file is left as it
 * is. SQLite then treats the empty file as a new database, and gives its -wal, -shm and -journal
 * the database file's own mode, so they are 0600 too.
 */
export function ensurePrivateFile(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, "wx", PRIVATE_FILE_MODE);
  } catch (err) {
    // EEXIST: leave it as it is; ENOENT (no such folder): the opener that follows says so in its own words.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST" || code === "ENOENT") return;
    throw err;
  }
  // The umask can only take bits away, never add them; fchmod makes the mode exact either way.
  try { fchmodSync(fd, PRIVATE_FILE_MODE); } finally { closeSync(fd); }
}

/** Creates `dir` (and missing parents) with mode 0700; an existing folder keeps its mode. */
export function ensurePrivateDir(dir: string): void {
  if (existsSync(dir)) return;
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Sets the mode of `file` to the mode `like` has now (permission bits only). */
export function copyFileMode(like: string, file: string): void {
  chmodSync(file, statSync(like).mode & 0o777);
}

/**
 * Which of these paths other local accounts can reach: group or others have any permission on them.
 * Returns one phrase per such path, e.g. "/srv/auth.db is 0644 (readable by others)", for a warning.
 */
export function findLoosePaths(paths: string[]): string[] {
  const loose: string[] = [];
  for (const path of paths) {
    let mode: number;
    try { mode = statSync(path).mode & 0o777; } catch { continue; }
    if ((mode & 0o077) === 0) continue;
    const who = mode & 0o004 ? "readable by others" : mode & 0o040 ? "readable by its group" : "open to group or others";
    loose.push(`${path} is ${mode.toString(8).padStart(4, "0")} (${who})`);
  }
  return loose;
}
