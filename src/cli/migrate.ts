import { Command } from "commander";
import { openStore, type Store } from "../store/database.js";
import { checkSqliteLocation } from "./preflight.js";
import { migrateToLatest, migrationStatus, type MigrationStatus } from "../store/migrator.js";
import { OpsError } from "../ops/backup.js";
import { planMigrations, type PlannedAction, type PlannedMigration } from "../ops/migration-plan.js";
import { describeRestorePoint, readUpgradeState, refuseNewerDatabase, takeRestorePoint, type UpgradeState } from "../ops/upgrade.js";
import { maskUrlPassword } from "../util/mask-url.js";
import { addConfigOptions, configFromFlags } from "./options.js";
import { CliError, type CliIO } from "./io.js";
import { authsvcVersion } from "./version.js";

/** `migrate --check`'s exit code when migrations are pending (a newer database: NEWER_DATABASE_EXIT, 4). */
export const PENDING_EXIT = 3;

/** `authsvc migrate [--status | --plan | --check]`: applies pending migrations (after a restore point), or says what they would do. */
export function migrateCommand(io: CliIO): Command {
  const cmd = new Command("migrate")
    .description("apply pending database migrations, after a restore point of a database that has some (--plan says what they would do, --check whether any are pending, --status lists them all)")
    .option("--status", "list applied and pending migrations without changing anything")
    .option("--plan", "print what each pending migration would do to this database (tables, rows, an estimate of the time) and whether the version serving now can keep serving meanwhile; changes nothing")
    .option("--check", `exit ${PENDING_EXIT} when migrations are pending, 4 when the database is newer than this authsvc, 0 when it is up to date (for deploy scripts); changes nothing`)
    .option("--no-restore-point", "migrate without first copying a SQLite database that already has migrations (only with a backup of your own)")
    .option("--json", "machine-readable output");
  addConfigOptions(cmd, "common");
  return cmd.action(async (flags) => {
    const { config } = configFromFlags(flags, io);
    checkSqliteLocation(config.database);
    let store: Store;
    try {
      store = openStore({ url: config.database, sqliteSynchronous: config.sqliteSynchronous });
    } catch (err) {
      throw new CliError(`cannot open ${maskUrlPassword(config.database)}: ${(err as Error).message}`);
    }
    try {
      const state = await readUpgradeState(store).catch((err: Error) => { throw new CliError(`cannot read the migrations of ${store.description}: ${err.message}`); });
      if (flags.status) return printStatus(io, await migrationStatus(store), state.unknown, flags.json === true);
      refuseNewerDatabase(state, store, authsvcVersion());
      if (flags.check) return check(io, store, state, flags.json === true);
      if (flags.plan) return printPlan(io, store, state, await planMigrations(store, state.pending), flags.json === true);
      if (flags.restorePoint !== false) {
        const point = await takeRestorePoint(store, state, { backupDir: config.backupDir, now: Date.now() });
        if (point) io.err(describeRestorePoint(point));
      }
      io.err(`migrating ${store.description}`);
      let applied: string[];
      try {
        applied = await migrateToLatest(store);
      } catch (err) {
        throw new CliError(`migration failed: ${(err as Error).message}`);
      }
      if (flags.json) return io.out(JSON.stringify({ applied }));
      for (const name of applied) io.out(`applied ${name}`);
      io.out(applied.length ? `${applied.length} migration(s) applied` : "already up to date: nothing to apply");
    } catch (err) {
      if (err instanceof OpsError) throw new CliError(err.message, err.exitCode);
      throw err;
    } finally {
      await store.close();
    }
  });
}

function printStatus(io: CliIO, list: MigrationStatus[], unknown: string[], json: boolean): void {
  if (json) return io.out(JSON.stringify(list));
  for (const m of list) io.out(`${m.appliedAt ? "applied" : "pending"}  ${m.name}${m.appliedAt ? `  ${new Date(m.appliedAt).toISOString()}` : ""}`);
  for (const name of unknown) io.out(`unknown  ${name}  (applied by a newer authsvc)`);
}

function check(io: CliIO, store: Store, state: UpgradeState, json: boolean): void {
  const pending = state.pending.map((m) => m.name);
  if (json) io.out(JSON.stringify({ at: state.at ?? null, newest: state.newest, pending }));
  if (pending.length === 0) {
    if (!json) io.out(`up to date: ${store.description} is at ${state.newest}, this authsvc's newest migration`);
    return;
  }
  throw new CliError(`${pending.length} migration(s) pending on ${store.description} (${pending.join(", ")}); \`authsvc migrate --plan\` says what they do`, PENDING_EXIT);
}

function printPlan(io: CliIO, store: Store, state: UpgradeState, plan: PlannedMigration[], json: boolean): void {
  if (json) return io.out(JSON.stringify({ database: store.description, at: state.at ?? null, newest: state.newest, pending: plan }));
  if (plan.length === 0) return io.out(`nothing pending: ${store.description} is at ${state.newest}, this authsvc's newest migration`);
  const from = state.at ? `from ${state.at}` : "from an empty database";
  io.out(`${plan.length} migration(s) pending on ${store.description} (${store.dialect === "postgres" ? "PostgreSQL" : "SQLite"}), ${from} to ${state.newest}; ${seconds(plan.reduce((ms, p) => ms + p.estimateMs, 0))} in all`);
  for (const p of plan) {
    const beside = p.runsBesideOlder ? "yes (it only adds)" : `no: ${p.actions.filter((a) => !a.compatible).map((a) => a.what).join(", ")}; stop the servers of the version running now first`;
    io.out(`${p.name}  ${seconds(p.estimateMs)}${state.at ? `; the version running now can keep serving meanwhile: ${beside}` : ""}`);
    for (const a of p.actions) io.out(`  ${phrase(a, store.dialect)}: ${a.detail}`);
  }
  if (state.applied.length) {
    io.out(store.dialect === "sqlite"
      ? "serve and migrate copy the database first (a restore point, beside it or in --backup-dir); `authsvc restore FILE` with the previous version goes back"
      : "take a pg_dump before upgrading: authsvc takes no restore point on PostgreSQL");
  }
}

function seconds(ms: number): string {
  return ms < 1000 ? "under a second" : `about ${Math.ceil(ms / 1000)} s`;
}

/** "builds an index on users (12000 rows now)": what an action does, and to how many rows. */
function phrase(a: PlannedAction, dialect: Store["dialect"]): string {
  if (!a.table) return a.what;
  const rows = `${a.rows} row${a.rows === 1 ? "" : "s"} now`;
  switch (a.what) {
    case "creates table": return `creates table ${a.table}`;
    case "builds index": return `builds an index on ${a.table} (${rows}${dialect === "postgres" && a.rows ? "; writes to it wait meanwhile" : ""})`;
    case "adds column": return `adds a column to ${a.table} (${rows}; none rewritten)`;
    case "changes data": return `changes data of ${a.table} (up to ${rows})`;
    default: return `${a.what} ${a.table} (${rows})`;
  }
}
