import { describeFsError } from "../util/fs-error.js";
import { createReadStream, createWriteStream, statSync, type WriteStream } from "node:fs";
import { once } from "node:events";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { Command } from "commander";
import { exportUsers } from "../ops/export-users.js";
import { importUsers, type ImportReport } from "../ops/import-users.js";
import { withApp, printJson } from "./context.js";
import { addAdminSubcommand } from "./options.js";
import { CliError, type CliIO } from "./io.js";
import { createProgress } from "./progress.js";

/** `authsvc users export` and `authsvc users import FILE` (format: docs/operations.md "Import and export"). */
export function addTransferCommands(users: Command, io: CliIO): void {
  addAdminSubcommand(users, "export", "write every user (login methods, verified state, password hash) as JSON lines")
    .option("--format <format>", "output format (only jsonl)", "jsonl")
    .option("--output <file>", "write to this new file (mode 600) instead of standard output")
    .action(async (flags) => {
      if (flags.format !== "jsonl") throw new CliError(`unknown --format ${flags.format}: only jsonl`, 2);
      const file: string | undefined = flags.output;
      await withApp(flags, io, async (app) => {
        // The file holds password hashes: created new, readable by its owner only.
        const out = file ? await openNewFile(file) : undefined;
        let count = 0;
        try {
          for await (const page of exportUsers(app.ctx)) {
            const text = page.map((u) => JSON.stringify(u)).join("\n") + "\n";
            count += page.length;
            if (!out) io.out(text.slice(0, -1));
            else if (!out.write(text)) await once(out, "drain");
          }
        } finally {
          if (out) await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
        }
        if (flags.json && file) return printJson(io, { exported: count, output: file });
        io.err(`exported ${count} user(s)${file ? ` to ${file}` : ""}`);
      });
    });

  addAdminSubcommand(users, "import", "create users from a JSON lines file (our export, or bcrypt hashes from elsewhere)")
    .argument("<file>", "the JSONL file, or - for standard input")
    .option("--dry-run", "check every row and report, but write nothing")
    .action(async (file: string, flags) => {
      let size = 0;
      if (file !== "-") {
        try { size = statSync(file).size; } catch (err) { throw new CliError(`cannot read ${file}: ${describeFsError(err)}`); }
      }
      await withApp(flags, io, async (app) => {
        const input: Readable = file === "-" ? io.stdin : createReadStream(file);
        const bytesRead = () => (input as Readable & { bytesRead?: number }).bytesRead ?? 0;
        const progress = createProgress(io, flags.dryRun ? "checking" : "importing");
        const lines = createInterface({ input, crlfDelay: Infinity });
        let report: ImportReport;
        try {
          report = await importUsers(app.ctx, lines, {
            dryRun: !!flags.dryRun,
            source: "cli-import",
            onBatch: (r) => progress.update(size ? bytesRead() / size : 0, `${r.lines} rows: ${r.created} ${r.dryRun ? "to create" : "created"}, ${r.skipped} skipped, ${r.refused} refused`),
          });
        } finally {
          progress.end();
          lines.close();
        }
        if (flags.json) printJson(io, report);
        else printReport(io, file, report);
        if (report.refused > 0) throw new CliError(`${report.refused} row(s) refused${report.dryRun ? "" : "; the other rows were imported"}`);
      });
    });
}

function printReport(io: CliIO, file: string, r: ImportReport): void {
  const name = file === "-" ? "standard input" : file;
  io.out(`${r.dryRun ? "dry run of" : "imported"} ${name}: ${r.created} ${r.dryRun ? "would be created" : "created"}, ${r.skipped} skipped (duplicates), ${r.refused} refused`);
  const issues = [...r.refusedRows.map((x) => ({ ...x, what: "refused" })), ...r.skippedRows.map((x) => ({ ...x, what: "skipped" }))].sort((a, b) => a.line - b.line);
  for (const x of issues) io.out(`  line ${x.line}: ${x.what}: ${x.reason}`);
  const unlisted = r.skipped - r.skippedRows.length + r.refused - r.refusedRows.length;
  if (unlisted > 0) io.out(`  … and ${unlisted} more (use --json for the first 1000 of each)`);
  if (r.dryRun) io.out("dry run: nothing was written");
}

async function openNewFile(file: string): Promise<WriteStream> {
  const out = createWriteStream(file, { flags: "wx", mode: 0o600 });
  try {
    await once(out, "open");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(code === "EEXIST" ? `${file} exists; choose a new file name (the export holds password hashes)` : `cannot write ${file}: ${describeFsError(err)}`);
  }
  return out;
}
