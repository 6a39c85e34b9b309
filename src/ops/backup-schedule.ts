import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import { ensurePrivateDir } from "../util/private-files.js";
import { backupSqlite, type CopyReport } from "./backup.js";

export interface BackupSchedule {
  /** One backup now, then pruning to `keep` (also what the timer runs). */
  runOnce(): Promise<CopyReport | undefined>;
  stop(): Promise<void>;
}

const NAME = /^authsvc-\d{8}T\d{6}(\d{3})?Z\.db$/;

/** `authsvc-20261123T140501123Z.db`: sorts by time as text. */
export function backupFileName(at: number): string {
  return `authsvc-${new Date(at).toISOString().replace(/[-:.]/g, "")}.db`;
}

/**
 * Scheduled backups inside `serve` (SQLite only): every `everyMs` an online copy into `dir` under a
 * timestamped name, then the oldest beyond `keep` are deleted. The copy runs in small steps (see
 * sqlite-copy.ts), so requests keep being served; a backup still running when the next is due is
 * not doubled. Failures are logged and the next run tries again.
 */
export function startBackupSchedule(o: { file: string; dir: string; everyMs: number; keep: number; clock: Clock; logger: Logger }): BackupSchedule {
  ensurePrivateDir(o.dir); // a new folder of backups is 0700; the files in it are 0600 (backup.ts)
  let running: Promise<CopyReport | undefined> | undefined;
  const run = async (): Promise<CopyReport | undefined> => {
    try {
      const report = await backupSqlite(o.file, join(o.dir, backupFileName(o.clock.now())), { now: o.clock.now });
      const pruned = prune(o.dir, o.keep);
      o.logger.info("backup written", { file: report.file, bytes: report.bytes, ms: report.ms, users: report.tables.users, pruned });
      return report;
    } catch (err) {
      o.logger.error("scheduled backup failed", { err });
      return undefined;
    }
  };
  const runOnce = () => (running ??= run().finally(() => { running = undefined; }));
  const timer = setInterval(() => { void runOnce(); }, o.everyMs);
  timer.unref();
  return {
    runOnce,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

/** Deletes the oldest scheduled backups beyond `keep`; other files in the folder are left alone. */
function prune(dir: string, keep: number): string[] {
  const ours = readdirSync(dir).filter((f) => NAME.test(f)).sort();
  const old = ours.slice(0, Math.max(0, ours.length - keep));
  for (const f of old) rmSync(join(dir, f), { force: true });
  return old;
}
