import { describeFsError } from "../util/fs-error.js";
import { createReadStream, createWriteStream, readFileSync, statSync, type WriteStream } from "node:fs";
import { once } from "node:events";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { Command } from "commander";
import { exportUsers } from "../ops/export-users.js";
import { importRecords, importUsers, SourceChangedError, type ImportOptions, type ImportReport } from "../ops/import-users.js";
import { MOVE_IN_SOURCES, MoveInError, readSource } from "../move-in/sources.js";
import { isPostgresUrl } from "../store/database.js";
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

  addAdminSubcommand(users, "import", "create users from a JSON lines file, or from another system's export (--from): passwords, ids, identities and second factors kept")
    .argument("<files...>", "the JSONL file (- for standard input), or with --from the source's export files")
    .option("--from <source>", `read another system's export: ${MOVE_IN_SOURCES.map((s) => s.id).join(", ")} (docs/moving-in.md)`)
    .option("--firebase-hash-config <file>", "--from firebase: the hash_config { … } block of the console's \"Password hash parameters\", in a file")
    .option("--groups-as-organizations", "--from keycloak: each top-level group a user belongs to becomes an organization they are a member of")
    .option("--dry-run", "check every row and report, but write nothing")
    .action(async (files: string[], flags) => {
      const from: string | undefined = flags.from;
      const source = from === undefined ? undefined : MOVE_IN_SOURCES.find((s) => s.id === from);
      if (from !== undefined && !source) throw new CliError(`unknown --from ${from}: one of ${MOVE_IN_SOURCES.map((s) => s.id).join(", ")}`, 2);
      if (!source && files.length !== 1) throw new CliError("give one JSONL file (or -); several files need --from", 2);
      if (flags.firebaseHashConfig && from !== "firebase") throw new CliError("--firebase-hash-config goes with --from firebase", 2);
      if (flags.groupsAsOrganizations && from !== "keycloak") throw new CliError("--groups-as-organizations goes with --from keycloak", 2);
      let size = 0;
      for (const file of files) {
        if ((file === "-" && !source) || (source && isPostgresUrl(file))) continue;
        try { size += statSync(file).size; } catch (err) { throw new CliError(`cannot read ${file}: ${describeFsError(err)}`); }
      }
      let firebaseHashConfig: string | undefined;
      if (flags.firebaseHashConfig) {
        try { firebaseHashConfig = readFileSync(flags.firebaseHashConfig, "utf8"); } catch (err) { throw new CliError(`cannot read ${flags.firebaseHashConfig}: ${describeFsError(err)}`); }
      }
      await withApp(flags, io, async (app) => {
        const progress = createProgress(io, flags.dryRun ? "checking" : "importing");
        const onBatch: ImportOptions["onBatch"] = (r, phase, { done, total }) => progress.update(phase === "checking" ? 0 : done / Math.max(1, total), `${phase}: ${r.lines} rows, ${r.created} ${r.dryRun ? "to create" : "created"}, ${r.skipped} skipped, ${r.refused} refused, ${r.conflicts} conflicts`);
        const options = { dryRun: !!flags.dryRun, source: source ? `import-${source.id}` : "cli-import", onBatch };
        let report: ImportReport;
        let after: string[] = [];
        try {
          // Each pass (check, then write) reads the files again: a large import is never held in memory whole.
          if (source) {
            report = await importRecords(app.ctx, () => readSource(source, files, { firebaseHashConfig, groupsAsOrganizations: !!flags.groupsAsOrganizations }, app.ctx.importParts), options);
            // Roles, keys and sessions follow the users (those refused are skipped), never past a conflict.
            if (source.afterImport && report.conflicts === 0) after = await source.afterImport(app.ctx, files, { dryRun: options.dryRun });
          } else if (files[0] === "-") report = await importUsers(app.ctx, createInterface({ input: io.stdin as Readable, crlfDelay: Infinity }), options);
          else report = await importUsers(app.ctx, () => createInterface({ input: createReadStream(files[0]), crlfDelay: Infinity }), options);
        } catch (err) {
          if (err instanceof MoveInError || err instanceof SourceChangedError) throw new CliError(err.message);
          throw err;
        } finally {
          progress.end();
        }
        if (flags.json) printJson(io, after.length ? { ...report, moved: after } : report);
        else {
          printReport(io, source ? files.map(withoutPassword).join(", ") : files[0], report);
          for (const line of after) io.out(line);
        }
        if (report.conflicts > 0) throw new CliError(`${report.conflicts} conflict(s): one address or identity for two people; nothing was written`);
        if (report.refused > 0) throw new CliError(`${report.refused} row(s) refused${report.dryRun ? "" : "; the other rows were imported"}`);
      });
    });
}

/** A database URL as it may be shown: without its password. */
function withoutPassword(file: string): string {
  if (!/^postgres(ql)?:\/\//.test(file)) return file;
  const u = new URL(file);
  if (u.password) u.password = "***";
  return u.toString();
}

function printReport(io: CliIO, file: string, r: ImportReport): void {
  const name = file === "-" ? "standard input" : file;
  if (r.conflicts > 0) {
    io.out(`${r.dryRun ? "dry run of" : "stopped before writing"} ${name}: ${r.conflicts} conflict(s), ${r.refused} refused, ${r.skipped} skipped (duplicates)`);
  } else {
    io.out(`${r.dryRun ? "dry run of" : "imported"} ${name}: ${r.created} ${r.dryRun ? "would be created" : "created"}, ${r.skipped} skipped (duplicates), ${r.refused} refused`);
  }
  const issues = [...r.conflictRows.map((x) => ({ ...x, what: "conflict" })), ...r.refusedRows.map((x) => ({ ...x, what: "refused" })), ...r.skippedRows.map((x) => ({ ...x, what: "skipped" }))].sort((a, b) => a.line - b.line);
  // A row from a source (--from) is named by its file and line or record, once; a plain file's by its line.
  for (const x of issues) io.out(`  ${x.where ?? `line ${x.line}`}: ${x.what}: ${x.reason}`);
  const unlisted = r.skipped - r.skippedRows.length + r.refused - r.refusedRows.length + r.conflicts - r.conflictRows.length;
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
