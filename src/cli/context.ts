import { existsSync } from "node:fs";
import { createApp, type App, type AppOverrides } from "../app.js";
import { isPostgresUrl, sqliteFilePath } from "../store/database.js";
import { migrationStatus } from "../store/migrator.js";
import { describeRestorePoint, NEWER_DATABASE_EXIT, readUpgradeState, refuseNewerDatabase, takeRestorePoint } from "../ops/upgrade.js";
import { authsvcVersion } from "./version.js";
import { ConfigError, type Config } from "../config.js";
import { createLogger, type Logger } from "../util/logger.js";
import { maskUrlPassword } from "../util/mask-url.js";
import { configFromFlags } from "./options.js";
import { checkSqliteLocation } from "./preflight.js";
import { CliError, type CliIO } from "./io.js";

/**
 * Builds the app; every failure becomes a clear CliError (exit 1), never a stack trace: a setting
 * createApp checks (providers, mail templates) names itself, anything else is the database
 * (missing directory, bad URL, unreachable server).
 */
export async function openAppOrFail(config: Readonly<Config>, logger: Logger, overrides: Omit<AppOverrides, "logger"> = {}): Promise<App> {
  checkSqliteLocation(config.database);
  try {
    return await createApp(config, { ...overrides, logger });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof ConfigError) throw new CliError(message);
    throw new CliError(`cannot open ${maskUrlPassword(config.database)}: ${message}`);
  }
}

/**
 * Opens the app for an admin command (store + core, no listener), applies pending migrations,
 * runs `fn`, and always closes the database. A SQLite file that does not exist is refused unless
 * the command was given --create: a typo in --database must not quietly make an empty database.
 */
export async function withApp<T>(flags: Record<string, unknown>, io: CliIO, fn: (app: App) => Promise<T>): Promise<T> {
  const { config } = configFromFlags(flags, io);
  refuseMissingDatabase(config.database, flags.create === true);
  const logger = createLogger(config.logLevel === "debug" ? "debug" : "error", (line) => io.err(line));
  const app = await openAppOrFail(config, logger);
  try {
    await migrateIfPending(app, io);
    try {
      return await fn(app);
    } catch (err) {
      if (isPermissionDenied(err)) throw new CliError(`the database role of ${app.store.description} may not do this: ${(err as Error).message}; grant it the rights this command needs, or run it with the owner's role`);
      throw err;
    }
  } finally {
    await app.close();
  }
}

/**
 * Applies pending migrations, and only when some are pending: a read-only database role (a
 * reporting user running `users list`) must not fail on a migration it has no need for. When
 * migrations are pending and the role may not apply them, it says so and what to run.
 */
async function migrateIfPending(app: App, io: CliIO): Promise<void> {
  let pending: string[];
  try {
    pending = (await migrationStatus(app.store)).filter((m) => m.appliedAt === null).map((m) => m.name);
  } catch (err) {
    const why = (err as Error).message;
    if (isPermissionDenied(err)) throw new CliError(`cannot read the migration table of ${app.store.description}: ${why}; grant this database role SELECT on authsvc_migrations (and the tables the command reads), or run it with the owner's role`);
    throw new CliError(`cannot read ${app.store.description}: ${why}`);
  }
  // A newer authsvc's database is refused, as serve refuses it: this version would write rows its schema no longer expects.
  const state = await readUpgradeState(app.store);
  try { refuseNewerDatabase(state, app.store, authsvcVersion()); } catch (err) { throw new CliError((err as Error).message, NEWER_DATABASE_EXIT); }
  if (pending.length === 0) return;
  // An upgrade of a database in use keeps a way back first, as serve and migrate do (ops/upgrade.ts).
  const point = await takeRestorePoint(app.store, state, { backupDir: app.ctx.config.backupDir, now: Date.now() })
    .catch((err: Error) => { throw new CliError(err.message); });
  if (point) io.err(describeRestorePoint(point));
  let applied: string[];
  try {
    applied = await app.migrate();
  } catch (err) {
    const why = (err as Error).message;
    if (isPermissionDenied(err)) {
      throw new CliError(`${app.store.description} needs ${pending.length} migration(s) (${pending.join(", ")}) that this database role may not apply (${why}); run \`authsvc migrate\` once with the role that owns the schema, then this command runs with this role`);
    }
    throw new CliError(`cannot migrate ${app.store.description}: ${why}`);
  }
  for (const name of applied) io.err(`applied migration ${name}`);
}

/** PostgreSQL's insufficient_privilege (42501), or SQLite's read-only database. */
function isPermissionDenied(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return e?.code === "42501" || e?.code === "SQLITE_READONLY" || (typeof e?.message === "string" && /permission denied|readonly database/i.test(e.message));
}

/** Prints a value as JSON (for --json). */
export function printJson(io: CliIO, value: unknown): void {
  io.out(JSON.stringify(value));
}

/** Only `migrate`, `serve` and commands given --create may create a SQLite file. */
export function refuseMissingDatabase(database: string, create: boolean): void {
  if (create || isPostgresUrl(database)) return;
  const file = sqliteFilePath(database);
  if (file === ":memory:" || existsSync(file)) return;
  throw new CliError(`no database at ${file}; check --database (AUTHSVC_DATABASE), or create it with \`authsvc migrate --database ${file}\` (or give --create)`);
}
