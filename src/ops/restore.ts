import { existsSync, renameSync, rmSync } from "node:fs";
import Database from "better-sqlite3";
import { migrations } from "../store/migrations/index.js";
import { besideName, OpsError } from "./backup.js";
import { probeDatabaseHolder } from "./database-lock.js";
import { findSchemaDifferences } from "./schema-check.js";
import { copyFileMode, ensurePrivateFile, findLoosePaths } from "../util/private-files.js";
import { markRestorePointInFile, readCurrentSigningKey, type RestorePoint } from "./restore-point.js";
import { copySqliteDatabase, fileSize, finishSqliteCopy, fsyncFileAndDir, type CopyReport } from "./sqlite-copy.js";

export interface RestoreReport extends CopyReport {
  /** Migrations the restored database has; later ones are applied by the next `serve`/`migrate`. */
  migrations: string[];
  /** What the restore ended (sessions, one-time tokens, waiting mail) and the signing-key advice. */
  restorePoint: RestorePoint;
}

/**
 * Replaces the SQLite database `target` with the backup `source`. Refuses while any process holds
 * `target` (see database-lock.ts). The backup is copied beside the target and checked there
 * (integrity_check; an authsvc database whose migrations this version knows), fsynced, then renamed
 * over the target in one step; a stale -wal/-shm of the old database is removed so it cannot be
 * replayed against the new one. Before the swap the copy is made a point in time (restore-point.ts):
 * its sessions and one-time tokens end, so nothing revoked after the backup comes back.
 */
export async function restoreSqlite(source: string, target: string, opts: { now?: () => number } = {}): Promise<RestoreReport> {
  const now = opts.now ?? Date.now;
  const started = now();
  if (!existsSync(source)) throw new OpsError(`no backup at ${source}`);
  refuseWhileHeld(target);
  const before = existsSync(target) ? await readCurrentSigningKey(target) : undefined;
  const tmp = besideName(target, "restore");
  try {
    ensurePrivateFile(tmp);
    await copySqliteDatabase(source, tmp);
    let tables: Record<string, number>;
    try { tables = await finishSqliteCopy(tmp); } catch (err) { throw new OpsError(`${source} is not a usable database: ${(err as Error).message}`); }
    const applied = readMigrations(tmp, source);
    const differences = await findSchemaDifferences(tmp, applied);
    if (differences.length) throw new OpsError(`${source} does not have the schema authsvc's migrations make (${differences.join("; ")}); authsvc did not make it so, or it was changed since: not restored`);
    const restorePoint = await markRestorePointInFile(tmp, { now: now(), source, before, sourceOpenToOthers: findLoosePaths([source])[0] });
    fsyncFileAndDir(tmp);
    // Checked again right before the swap: a server may have started while we copied.
    refuseWhileHeld(target);
    // The restored database keeps the mode of the one it replaces (0600 when there was none).
    if (existsSync(target)) copyFileMode(target, tmp);
    renameSync(tmp, target);
    for (const f of [`${target}-wal`, `${target}-shm`, `${target}-journal`]) rmSync(f, { force: true });
    fsyncFileAndDir(target);
    return { file: target, bytes: fileSize(target), tables, ms: now() - started, migrations: applied, restorePoint };
  } catch (err) {
    for (const f of [tmp, `${tmp}-journal`, `${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
    if (err instanceof OpsError) throw err;
    throw new OpsError(`restore failed: ${(err as Error).message}`);
  }
}

function refuseWhileHeld(target: string): void {
  if (!existsSync(target)) return;
  const held = probeDatabaseHolder(target);
  if (held) throw new OpsError(`${target} is in use by another process (is \`authsvc serve\` running?); stop it, then restore (${held})`);
}

/** The backup must be an authsvc database, and not from a newer version than this one. */
function readMigrations(file: string, shownAs: string): string[] {
  const db = new Database(file, { fileMustExist: true, readonly: true });
  try {
    const hasTable = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'authsvc_migrations'").get();
    if (!hasTable) throw new OpsError(`${shownAs} is not an authsvc database (no authsvc_migrations table)`);
    const names = db.prepare("select name from authsvc_migrations order by name").pluck().all() as string[];
    const known = new Set(migrations.map((m) => m.name));
    const unknown = names.filter((n) => !known.has(n));
    if (unknown.length) throw new OpsError(`${shownAs} has migrations this version does not know (${unknown.join(", ")}); restore it with the authsvc that made it`);
    if (names.length === 0) throw new OpsError(`${shownAs} is not an authsvc database (no migrations applied)`);
    return names;
  } finally {
    db.close();
  }
}
