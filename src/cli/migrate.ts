import { Command } from "commander";
import { openStore, type Store } from "../store/database.js";
import { checkSqliteLocation } from "./preflight.js";
import { migrateToLatest, migrationStatus } from "../store/migrator.js";
import { maskUrlPassword } from "../util/mask-url.js";
import { addConfigOptions, configFromFlags } from "./options.js";
import { CliError, type CliIO } from "./io.js";

/** `authsvc migrate [--status]`: applies pending migrations and prints each step. */
export function migrateCommand(io: CliIO): Command {
  const cmd = new Command("migrate")
    .description("apply pending database migrations (--status lists applied and pending)")
    .option("--status", "list applied and pending migrations without changing anything")
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
      if (flags.status) {
        const list = await migrationStatus(store).catch((err: Error) => { throw new CliError(`cannot read ${store.description}: ${err.message}`); });
        if (flags.json) return io.out(JSON.stringify(list));
        for (const m of list) io.out(`${m.appliedAt ? "applied" : "pending"}  ${m.name}${m.appliedAt ? `  ${new Date(m.appliedAt).toISOString()}` : ""}`);
        return;
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
    } finally {
      await store.close();
    }
  });
}
