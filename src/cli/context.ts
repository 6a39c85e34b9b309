import { existsSync } from "node:fs";
import { createApp, type App } from "../app.js";
import { isPostgresUrl, sqliteFilePath } from "../store/database.js";
import { ConfigError, type Config } from "../config.js";
import { createLogger, type Logger } from "../util/logger.js";
import { maskUrlPassword } from "../util/mask-url.js";
import { configFromFlags } from "./options.js";
import { CliError, type CliIO } from "./io.js";

/**
 * Builds the app; every failure becomes a clear CliError (exit 1), never a stack trace: a setting
 * createApp checks (providers, mail templates) names itself, anything else is the database
 * (missing directory, bad URL, unreachable server).
 */
export async function openAppOrFail(config: Readonly<Config>, logger: Logger): Promise<App> {
  try {
    return await createApp(config, { logger });
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
    let applied: string[];
    try {
      applied = await app.migrate();
    } catch (err) {
      throw new CliError(`cannot migrate ${app.store.description}: ${(err as Error).message}`);
    }
    for (const name of applied) io.err(`applied migration ${name}`);
    return await fn(app);
  } finally {
    await app.close();
  }
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
