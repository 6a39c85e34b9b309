import { createApp, type App } from "../app.js";
import { createLogger } from "../util/logger.js";
import { configFromFlags } from "./options.js";
import type { CliIO } from "./io.js";

/**
 * Opens the app for an admin command (store + core, no listener), applies pending migrations so a
 * fresh database just works, runs `fn`, and always closes the database.
 */
export async function withApp<T>(flags: Record<string, unknown>, io: CliIO, fn: (app: App) => Promise<T>): Promise<T> {
  const { config } = configFromFlags(flags, io);
  const logger = createLogger(config.logLevel === "debug" ? "debug" : "error", (line) => io.err(line));
  const app = await createApp(config, { logger });
  try {
    const applied = await app.migrate();
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
