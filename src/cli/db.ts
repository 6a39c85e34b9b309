import { Command, InvalidArgumentError } from "commander";
import { OpsError } from "../ops/backup.js";
import { copyDatabase, type CopyProgress, type CopyReport } from "../ops/db-copy/copy.js";
import { isPostgresUrl } from "../store/database.js";
import { maskUrlPassword } from "../util/mask-url.js";
import { checkSqliteLocation } from "./preflight.js";
import { createProgress } from "./progress.js";
import { CliError, type CliIO } from "./io.js";

const positive = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new InvalidArgumentError("a whole number from 1 to 100000");
  return n;
};

/** `authsvc db copy --from A --to B`: every table of one database into an empty other, SQLite or PostgreSQL either way. */
export function dbCommand(io: CliIO): Command {
  const db = new Command("db").description("whole-database tools: copy every table from SQLite to PostgreSQL (or back)");
  db.command("copy")
    .description("copy everything (users, sessions, keys, OAuth clients and grants, second factors, organizations, webhooks and their queue, the outbox…) into an empty database, migrated to the source's version first; the source must not be in use; verified table by table before it is committed, so an interrupted copy leaves the target empty")
    .requiredOption("--from <database>", "the database to copy: a SQLite file or a postgres:// URL (read only)")
    .requiredOption("--to <database>", "an empty database to fill: a postgres:// URL (?schema= and ?pooler= as for --database) or a SQLite file (created)")
    .option("--batch-size <rows>", "rows per read and per insert", positive, 500)
    .option("--json", "print the report as JSON")
    .action(async (flags: { from: string; to: string; batchSize: number; json?: boolean }) => {
      for (const url of [flags.from, flags.to]) {
        if (!isPostgresUrl(url)) {
          try { checkSqliteLocation(url); } catch (err) { throw new CliError((err as Error).message); }
        }
      }
      io.err(`db copy: ${describe(flags.from)} -> ${describe(flags.to)}`);
      let stopped = false;
      const off = io.onSignal?.(() => { stopped = true; });
      const show = showProgress(io);
      try {
        const report = await copyDatabase({ from: flags.from, to: flags.to, batchSize: flags.batchSize, onProgress: show.update, stopped: () => stopped });
        show.end();
        if (flags.json) return io.out(JSON.stringify(report));
        printReport(io, report);
      } catch (err) {
        show.end();
        if (err instanceof OpsError) throw new CliError(err.message, err.exitCode);
        throw new CliError(`db copy failed, nothing was written to the target: ${(err as Error).message}`);
      } finally {
        off?.();
      }
    });
  return db;
}

function describe(url: string): string {
  return isPostgresUrl(url) ? `${maskUrlPassword(url)} (PostgreSQL)` : `${url} (SQLite)`;
}

/**
 * Progress on standard error: a bar on a terminal; otherwise a line when a table is done, and one
 * every 5 seconds inside a long table, so a log shows the copy moving.
 */
function showProgress(io: CliIO): { update(p: CopyProgress): void; end(): void } {
  const bar = createProgress(io, "db copy");
  if (io.stderrTTY) {
    return {
      update: (p) => bar.update(p.total ? p.rows / p.total : 1, `${p.phase === "copy" ? "copying" : "checking"} ${p.table} ${p.tableRows}/${p.tableTotal}`),
      end: () => bar.end(),
    };
  }
  let last = Date.now();
  return {
    update: (p) => {
      const done = p.tableRows === p.tableTotal;
      if (!done && Date.now() - last < 5000) return;
      last = Date.now();
      io.err(`  ${p.phase === "copy" ? (done ? "copied" : "copying") : (done ? "checked" : "checking")} ${p.table}: ${p.tableRows}${done ? "" : `/${p.tableTotal}`} rows (${p.rows}/${p.total} in all)`);
    },
    end: () => {},
  };
}

function printReport(io: CliIO, r: CopyReport): void {
  const width = Math.max(...r.tables.map((t) => t.table.length));
  io.out(`copied ${r.tables.length} tables, ${r.rows} rows from ${r.from} to ${r.to} in ${(r.ms / 1000).toFixed(1)} s; every table's row count and checksum match on both ends`);
  for (const t of r.tables) io.out(`  ${t.table.padEnd(width)}  ${String(t.rows).padStart(8)}  ${t.checksum.slice(0, 16)}`);
  io.out(`the target is at migration ${r.migrations[r.migrations.length - 1]}, as the source${r.pending.length ? `; ${r.pending.length} newer migration(s) (${r.pending.join(", ")}) are applied when authsvc serve or migrate first runs on it` : ""}`);
  io.out("start authsvc on the target with the same AUTHSVC_SECRET: the signing keys and second-factor secrets are encrypted with it");
}
