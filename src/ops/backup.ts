import { existsSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { ensurePrivateFile } from "../util/private-files.js";
import { copySqliteDatabase, fileSize, finishSqliteCopy, fsyncFileAndDir, type CopyReport } from "./sqlite-copy.js";

export type { CopyReport } from "./sqlite-copy.js";

/** A backup or restore that cannot go ahead; the message says why and what to do. */
export class OpsError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}

/** A temporary name beside `file`: same directory, so the final rename is atomic. */
export function besideName(file: string, tag: string): string {
  return join(dirname(file), `.${basename(file)}.${tag}-${randomBytes(4).toString("hex")}`);
}

/**
 * Backs up a live SQLite database into `dest`: online copy into a temporary file beside `dest`,
 * integrity_check, fsync, then rename into place, so `dest` is either absent or a whole, checked
 * copy, never half a file. Refuses to replace an existing `dest` unless `force`.
 */
export async function backupSqlite(sourceFile: string, dest: string, opts: { force?: boolean; now?: () => number } = {}): Promise<CopyReport> {
  const now = opts.now ?? Date.now;
  const started = now();
  if (!existsSync(sourceFile)) throw new OpsError(`no database at ${sourceFile}`);
  if (existsSync(dest) && !opts.force) throw new OpsError(`${dest} exists; give --force to replace it`);
  if (!existsSync(dirname(dest))) throw new OpsError(`the directory ${dirname(dest)} does not exist`);
  const tmp = besideName(dest, "backup");
  try {
    ensurePrivateFile(tmp); // the copy holds every password hash: 0600 from its first byte
    await copySqliteDatabase(sourceFile, tmp);
    const tables = await finishSqliteCopy(tmp);
    fsyncFileAndDir(tmp);
    renameSync(tmp, dest);
    fsyncFileAndDir(dest);
    return { file: dest, bytes: fileSize(dest), tables, ms: now() - started };
  } catch (err) {
    for (const f of [tmp, `${tmp}-journal`, `${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
    if (err instanceof OpsError) throw err;
    throw new OpsError(`backup failed: ${(err as Error).message}`);
  }
}
