import { existsSync, rmSync } from "node:fs";
import type { Kysely } from "kysely";
import { isPostgresUrl, openStore, sqliteFilePath, type Store } from "../../store/database.js";
import { migrateToLatest, readAppliedMigrations } from "../../store/migrator.js";
import { migrations as allMigrations, type Migration } from "../../store/migrations/index.js";
import { OpsError } from "../backup.js";
import { holdServeLock, serveLockPath } from "../serve-lock.js";
import { readColumns } from "./columns.js";
import { planCopy, type CopyTable } from "./plan.js";
import { copyInSnapshot, refuseRows, type Columns, type CopyProgress, type TableReport } from "./transfer.js";

export type { CopyProgress, TableReport } from "./transfer.js";

export interface CopyOptions {
  /** A SQLite file or a postgres:// URL, both ways. */
  from: string;
  to: string;
  /** Rows per read and per INSERT (fewer for wide tables: a statement's parameters are limited). */
  batchSize?: number;
  /** The migrations this version knows (tests add one). */
  migrations?: readonly Migration[];
  now?: () => number;
  onProgress?(p: CopyProgress): void;
  /** Asked between batches: true stops the copy, and nothing is written (the user pressed Ctrl-C). */
  stopped?(): boolean;
}

export interface CopyReport {
  from: string;
  to: string;
  /** The source's migrations, which the target was migrated to. */
  migrations: string[];
  /** Migrations this version has that the source had not applied: `serve` or `migrate` applies them on the target. */
  pending: string[];
  tables: TableReport[];
  rows: number;
  ms: number;
}

interface Side { store: Store; release?: () => void }

/**
 * Copies every authsvc table of one database into another, SQLite or PostgreSQL either way:
 * 1. refuses a source a server is writing (SQLite: `serve`'s lock, held meanwhile so none starts),
 *    a source not migrated or migrated by a newer version, and a target that holds any row;
 * 2. migrates the target to the source's migrations (no further), so both have one schema;
 * 3. reads the source in one snapshot (a read transaction) and writes the target in ONE
 *    transaction, in batches, parents before children;
 * 4. before committing, reads every table back and compares its row count and checksum
 *    (digest.ts) with the source's, and counts the source again: rows that appeared or went while
 *    it was read mean a server is still writing, and the copy is not committed.
 * Interrupted anywhere (Ctrl-C, a kill, a lost connection), the target's transaction rolls back:
 * the target is as empty as before, and running the command again starts over.
 */
export async function copyDatabase(o: CopyOptions): Promise<CopyReport> {
  const now = o.now ?? Date.now;
  const started = now();
  const list = o.migrations ?? allMigrations;
  if (describeLocation(o.from) === describeLocation(o.to)) throw new OpsError("--from and --to name the same database", 2);
  const opened: Side[] = [];
  // A SQLite target this copy creates is removed again if the copy fails: a refusal leaves nothing behind.
  const made = isPostgresUrl(o.to) || existsSync(sqliteFilePath(o.to)) ? undefined : sqliteFilePath(o.to);
  let done = false;
  try {
    const source = openSide(o.from, "source", true);
    opened.push(source);
    const target = openSide(o.to, "target", false);
    opened.push(target);
    const applied = await checkSource(source.store, list);
    await migrateTarget(target.store, applied, list, now);
    const tables = await planCopy(applied, list);
    const columns = await compareColumns(source.store, target.store, tables);
    await refuseRows(target.store.db as unknown as Kysely<any>, tables, target.store.description);
    const recount = isPostgresUrl(o.from) ? source.store : openStore({ url: o.from, mustExist: true });
    if (recount !== source.store) opened.push({ store: recount });
    const reports = await copyInSnapshot({ source: source.store, target: target.store, recount: recount.db as unknown as Kysely<any>, tables, columns, options: o });
    done = true;
    return {
      from: source.store.description, to: target.store.description, migrations: applied,
      pending: list.map((m) => m.name).filter((n) => !applied.includes(n)),
      tables: reports, rows: reports.reduce((n, r) => n + r.rows, 0), ms: now() - started,
    };
  } finally {
    for (const side of opened.reverse()) { side.release?.(); await side.store.close(); }
    if (made && !done) for (const f of ["", "-wal", "-shm", "-journal", "-serve.lock"]) rmSync(`${made}${f}`, { force: true });
  }
}

function describeLocation(url: string): string {
  return isPostgresUrl(url) ? url : `sqlite:${sqliteFilePath(url)}`;
}

/** Opens one end; a SQLite file gets `serve`'s lock, so no server runs on it while it is copied. */
function openSide(url: string, role: "source" | "target", mustExist: boolean): Side {
  if (mustExist && !isPostgresUrl(url) && !existsSync(sqliteFilePath(url))) throw new OpsError(`no database at ${sqliteFilePath(url)}`);
  let store: Store;
  try {
    store = openStore({ url, mustExist });
  } catch (err) {
    throw new OpsError(`cannot open the ${role} ${isPostgresUrl(url) ? "database" : sqliteFilePath(url)}: ${(err as Error).message}`);
  }
  if (!store.file) return { store };
  const release = holdServeLock(store.file);
  if (release) return { store, release };
  void store.close();
  throw new OpsError(role === "source"
    ? `authsvc serve is running on ${store.file} (it holds ${serveLockPath(store.file)}): stop it first. The copy is what the database holds when it starts; what a running server writes afterwards would be lost`
    : `authsvc serve is running on the target ${store.file}: stop it; db copy fills a database no server uses yet`);
}

/** The source's migrations: it must be an authsvc database, and not from a newer version. */
async function checkSource(store: Store, list: readonly Migration[]): Promise<string[]> {
  const applied = (await readAppliedMigrations(store.db as unknown as Kysely<any>)).map((m) => m.name);
  if (applied.length === 0) throw new OpsError(`${store.description} is not an authsvc database (no migrations applied)`);
  const known = new Set(list.map((m) => m.name));
  const unknown = applied.filter((n) => !known.has(n));
  if (unknown.length) throw new OpsError(`${store.description} was migrated by a newer authsvc (${unknown.join(", ")} unknown to this one): copy it with that version`);
  return list.map((m) => m.name).filter((n) => applied.includes(n));
}

/** Brings the target to exactly the source's migrations (an empty database gets all of them). */
async function migrateTarget(store: Store, applied: string[], list: readonly Migration[], now: () => number): Promise<void> {
  const has = (await readAppliedMigrations(store.db as unknown as Kysely<any>)).map((m) => m.name);
  const beyond = has.filter((n) => !applied.includes(n));
  if (beyond.length) throw new OpsError(`the target ${store.description} has migrations the source has not (${beyond.join(", ")}): run \`authsvc migrate\` on the source first, or copy into an empty database`);
  await migrateToLatest(store, now, list.filter((m) => applied.includes(m.name)));
}

/** Both ends' columns of every table, of one kind each (the migrations make the same schema on both). */
async function compareColumns(source: Store, target: Store, tables: CopyTable[]): Promise<Columns> {
  const out: Columns = new Map();
  for (const t of tables) {
    const s = await readColumns(source.db as unknown as Kysely<any>, source.dialect, t.name);
    const d = await readColumns(target.db as unknown as Kysely<any>, target.dialect, t.name);
    for (const c of t.columns) {
      if (!s.has(c)) throw new OpsError(`the source has no column ${t.name}.${c}, which its migrations make: it was changed by hand; not copied`);
      if (!d.has(c)) throw new OpsError(`the target has no column ${t.name}.${c} after its migrations: it was changed by hand; not copied`);
      if (s.get(c)!.kind !== d.get(c)!.kind) throw new OpsError(`${t.name}.${c} is ${s.get(c)!.type} in the source and ${d.get(c)!.type} in the target: not copied`);
    }
    out.set(t.name, { source: s, target: d });
  }
  return out;
}


