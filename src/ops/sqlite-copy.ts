import { closeSync, fsyncSync, openSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";

/** What a finished copy holds: file size, rows per table, time taken. */
export interface CopyReport {
  file: string;
  bytes: number;
  tables: Record<string, number>;
  ms: number;
}

// Pages copied per step: small enough that one step (a few hundred KB) never holds the event loop
// for long, which matters when the copy runs inside `serve`.
const STEP_PAGES = 256;

/**
 * Copies a live SQLite database page by page with SQLite's online backup API (better-sqlite3's
 * async `db.backup()`: one step per event-loop turn). The source is read through its own
 * connection: each step sees only committed data, never a writer's open transaction. When another
 * connection commits between steps SQLite restarts the copy; each restart doubles the step so a
 * busy database still finishes (at worst in one step, which is one consistent read snapshot).
 */
export async function copySqliteDatabase(sourceFile: string, destFile: string): Promise<void> {
  const source = new Database(sourceFile, { fileMustExist: true, timeout: 5000 });
  try {
    let pages = STEP_PAGES;
    let lastRemaining = Infinity;
    await source.backup(destFile, {
      progress: ({ remainingPages }) => {
        if (remainingPages > lastRemaining) pages = Math.min(pages * 2, 0x7fffffff);
        lastRemaining = remainingPages;
        return pages;
      },
    });
  } finally {
    source.close();
  }
}

/**
 * Finishes a fresh copy: switches it to a rollback journal (one self-contained file, no -wal or
 * -shm beside it; `serve` turns WAL back on when it opens it), then `PRAGMA integrity_check` must
 * say ok. Returns the row count of every table. Throws with SQLite's own complaint otherwise.
 *
 * integrity_check reads every page and index (about 0.8 s for 70 MB here), which inside `serve`
 * would stall every request, so it runs in a worker thread with its own connection. Should a worker
 * not start (an unusual packaging), it runs here instead: correct, only not concurrent.
 */
export async function finishSqliteCopy(file: string): Promise<Record<string, number>> {
  let driver: string;
  try { driver = createRequire(import.meta.url).resolve("better-sqlite3"); } catch { return finishCopyHere(file); }
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file } });
  const reply = await new Promise<{ ok: true; tables: Record<string, number> } | { ok: false; message: string } | undefined>((resolve) => {
    worker.once("message", resolve);
    worker.once("error", () => resolve(undefined));
    worker.once("exit", () => resolve(undefined));
  });
  await worker.terminate();
  if (!reply) return finishCopyHere(file);
  if (!reply.ok) throw new Error(reply.message);
  return reply.tables;
}

function finishCopyHere(file: string): Record<string, number> {
  const db = new Database(file, { fileMustExist: true });
  try {
    return checkAndCount(db);
  } finally {
    db.close();
  }
}

// The same steps as checkAndCount, for the worker (a string: the bundle has no separate worker file).
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.file, { fileMustExist: true });
  parentPort.postMessage({ ok: true, tables: (${checkAndCountSource()})(db) });
} catch (err) {
  parentPort.postMessage({ ok: false, message: err && err.message ? err.message : String(err) });
} finally {
  if (db) db.close();
}
`;

function checkAndCountSource(): string {
  return checkAndCount.toString();
}

function checkAndCount(db: Database.Database): Record<string, number> {
  db.pragma("journal_mode = DELETE");
  const problems = db.pragma("integrity_check") as Array<{ integrity_check: string }>;
  if (problems.length !== 1 || problems[0].integrity_check !== "ok") {
    throw new Error("integrity_check failed: " + problems.slice(0, 5).map((p) => p.integrity_check).join("; "));
  }
  const names = db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").pluck().all() as string[];
  const tables: Record<string, number> = {};
  for (const name of names) tables[name] = Number(db.prepare("select count(*) from \"" + name.replace(/"/g, "\"\"") + "\"").pluck().get());
  return tables;
}

/** Flushes a file and its directory entry to disk, so a rename that follows survives a power cut. */
export function fsyncFileAndDir(file: string): void {
  for (const path of [file, dirname(file)]) {
    const fd = openSync(path, "r");
    try { fsyncSync(fd); } finally { closeSync(fd); }
  }
}

/** Size of a file in bytes. */
export function fileSize(file: string): number {
  return statSync(file).size;
}
