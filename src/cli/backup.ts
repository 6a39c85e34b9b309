import { resolve } from "node:path";
import { Command } from "commander";
import { isPostgresUrl, sqliteFilePath } from "../store/database.js";
import { backupSqlite, OpsError, type CopyReport } from "../ops/backup.js";
import { restoreSqlite } from "../ops/restore.js";
import { markRestorePoint, type RestorePoint } from "../ops/restore-point.js";
import { printJson, withApp } from "./context.js";
import { addConfigOptions, configFromFlags } from "./options.js";
import { CliError, type CliIO } from "./io.js";

const PG_BACKUP = "the database is PostgreSQL: back it up with pg_dump (e.g. pg_dump -Fc \"$DATABASE_URL\" > authsvc.dump) and restore with pg_restore, then run `authsvc restore --mark-only` so sessions and one-time tokens from before the restore stop working; authsvc backup/restore are for the embedded SQLite database";

/** `authsvc backup FILE` and `authsvc restore FILE` (SQLite; PostgreSQL is pg_dump's job). */
export function backupCommands(io: CliIO): Command[] {
  const backup = new Command("backup")
    .description("copy the live SQLite database into FILE (consistent while serve keeps writing), then check the copy")
    .argument("<file>", "where to write the backup")
    .option("--force", "replace FILE if it exists")
    .option("--json", "machine-readable output");
  addConfigOptions(backup, "common");
  backup.action(async (file: string, flags) => {
    const source = sqliteSource(flags, io);
    const report = await run(() => backupSqlite(source, resolve(file), { force: flags.force === true }));
    if (flags.json) return printJson(io, report);
    io.out(`backup of ${source} written to ${report.file}: ${describe(report)}; integrity_check ok`);
  });

  const restore = new Command("restore")
    .description("replace the SQLite database with a backup (refused while a server has the database open); sessions and one-time tokens from before the restore stop working")
    .argument("[file]", "the backup to restore")
    .option("--mark-only", "the database was restored by another tool (pg_restore, a snapshot): only end the sessions and one-time tokens it holds, and advise on the signing key")
    .option("--json", "machine-readable output");
  addConfigOptions(restore, "common");
  restore.action(async (file: string | undefined, flags) => {
    if (flags.markOnly) {
      if (file !== undefined) throw new CliError("--mark-only takes no FILE: it marks the database as it is now", 2);
      const point = await withApp(flags, io, (app) => markRestorePoint(app.store.writeTx, { now: app.ctx.clock.now(), source: "mark-only" }));
      if (flags.json) return printJson(io, point);
      return printRestorePoint(io, point);
    }
    if (file === undefined) throw new CliError("give the backup FILE to restore (or --mark-only after pg_restore)", 2);
    const target = sqliteSource(flags, io);
    const report = await run(() => restoreSqlite(resolve(file), target));
    if (flags.json) return printJson(io, report);
    io.out(`restored ${target} from ${resolve(file)}: ${describe(report)}; integrity_check ok; migrations ${report.migrations.join(", ")}`);
    printRestorePoint(io, report.restorePoint);
  });
  return [backup, restore];
}

function printRestorePoint(io: CliIO, p: RestorePoint): void {
  io.out(`restore point ${new Date(p.at).toISOString()}: ended ${p.sessionsEnded} session(s) (their refresh tokens now get 401; access tokens already issued expire on their own), voided ${p.tokensVoided} verification/reset token(s), abandoned ${p.mailAbandoned} waiting mail(s)`);
  io.out(`signing key: ${p.signingKey.advice}`);
  for (const r of p.signingKey.reasons) io.out(`  - ${r}`);
}

function sqliteSource(flags: Record<string, unknown>, io: CliIO): string {
  const { config } = configFromFlags(flags, io);
  if (isPostgresUrl(config.database)) throw new CliError(PG_BACKUP, 2);
  return resolve(sqliteFilePath(config.database));
}

async function run<T>(fn: () => Promise<T>): Promise<T> {
  try { return await fn(); } catch (err) {
    if (err instanceof OpsError) throw new CliError(err.message, err.exitCode);
    throw err;
  }
}

function describe(r: CopyReport): string {
  const rows = Object.entries(r.tables).map(([t, n]) => `${t} ${n}`).join(", ");
  return `${formatBytes(r.bytes)}, ${Object.keys(r.tables).length} tables (${rows}), ${r.ms} ms`;
}

function formatBytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
