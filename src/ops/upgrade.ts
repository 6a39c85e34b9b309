import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Kysely } from "kysely";
import type { Store } from "../store/database.js";
import { readAppliedMigrations } from "../store/migrator.js";
import { migrations as allMigrations, type Migration } from "../store/migrations/index.js";
import { ensurePrivateDir } from "../util/private-files.js";
import { backupSqlite, OpsError } from "./backup.js";

/** Where a database stands against this version's migrations. */
export interface UpgradeState {
  /** Applied here, in this version's order. */
  applied: string[];
  /** This version's migrations not applied yet, in order. */
  pending: Migration[];
  /** Applied here by a newer authsvc: this version does not know them. */
  unknown: string[];
  /** The database's newest migration (its schema version), if any. */
  at: string | undefined;
  /** This version's newest migration. */
  newest: string;
}

export async function readUpgradeState(store: Store, list: readonly Migration[] = allMigrations): Promise<UpgradeState> {
  const rows = await readAppliedMigrations(store.db as unknown as Kysely<any>);
  const done = new Set(rows.map((r) => r.name));
  const known = new Set(list.map((m) => m.name));
  const unknown = rows.map((r) => r.name).filter((n) => !known.has(n));
  const applied = list.filter((m) => done.has(m.name)).map((m) => m.name);
  // The newest by name: migrations are numbered, and a newer version's sort after this one's.
  const at = [...done].sort().pop();
  return { applied, pending: list.filter((m) => !done.has(m.name)), unknown, at, newest: list[list.length - 1].name };
}

/** Exit code of the refusal of a database newer than this version (`migrate --check` documents it). */
export const NEWER_DATABASE_EXIT = 4;

/**
 * A database a newer authsvc migrated is refused, naming both versions: the database's (its newest
 * migration) and this one's (`version` and its newest migration), and the migrations it does not
 * know. An older version serving it would write rows the newer schema no longer expects.
 */
export function refuseNewerDatabase(state: UpgradeState, store: Store, version: string): void {
  if (state.unknown.length === 0) return;
  throw new OpsError(`${store.description} is at migration ${state.at}, from a newer authsvc than this one (${version}, whose newest migration is ${state.newest}); it does not know ${state.unknown.join(", ")}. Run the authsvc that migrated it (or a later one); to go back to this version, restore the restore point taken before that upgrade`, NEWER_DATABASE_EXIT);
}

/** What was done to keep a way back before migrating. */
export type RestorePointTaken = { kind: "sqlite"; file: string; bytes: number; ms: number } | { kind: "postgres"; advice: string };

/**
 * Before a migration changes a database that already holds a release's schema (an upgrade, not a
 * first start), keeps a way back. SQLite: a checked online copy (ops/backup.ts) named after the
 * schema it holds, in `backupDir` or beside the database; a copy that fails (a full disk) stops the
 * upgrade. PostgreSQL: authsvc cannot take a consistent dump itself; it says what to run.
 */
export async function takeRestorePoint(store: Store, state: UpgradeState, o: { backupDir?: string; now: number }): Promise<RestorePointTaken | undefined> {
  if (state.pending.length === 0 || state.applied.length === 0) return undefined;
  if (store.dialect === "postgres") {
    // pg_dump takes the URL without authsvc's own parameters; the schema is its own option.
    const url = new URL(store.description);
    url.searchParams.delete("schema");
    url.searchParams.delete("pooler");
    const schema = store.pgSchema ? ` --schema=${store.pgSchema}` : "";
    const dump = `authsvc-at-${state.at}.dump`;
    return { kind: "postgres", advice: `upgrading ${store.description} from migration ${state.at} to ${state.newest}: authsvc takes no restore point on PostgreSQL; take one before upgrading, over a direct connection (not a transaction-mode pooler): pg_dump -Fc${schema} "${url}" > ${dump}; to go back: pg_restore --clean${schema} -d "${url}" ${dump}, then the previous authsvc` };
  }
  if (!store.file) return undefined;
  const dir = resolve(o.backupDir ?? dirname(store.file));
  if (o.backupDir) ensurePrivateDir(dir);
  const stamp = new Date(o.now).toISOString().replace(/[-:.]/g, "");
  const file = join(dir, `${basename(store.file).replace(/\.db$/, "")}-at-${state.at}-${stamp}.db`);
  if (existsSync(file)) throw new OpsError(`the restore point ${file} exists already`);
  try {
    const r = await backupSqlite(store.file, file);
    return { kind: "sqlite", file: r.file, bytes: r.bytes, ms: r.ms };
  } catch (err) {
    throw new OpsError(`could not take the restore point before migrating ${store.file} from ${state.at} to ${state.newest} (${(err as Error).message}); nothing was migrated. Free some space (the copy is as large as the database), or, with a backup of your own, run \`authsvc migrate --no-restore-point\` once`);
  }
}

/** The line that says where the restore point is and how to go back with it. */
export function describeRestorePoint(r: RestorePointTaken): string {
  if (r.kind === "postgres") return r.advice;
  return `restore point before migrating: ${r.file} (${r.bytes} bytes, ${r.ms} ms); to go back, stop authsvc and run \`authsvc restore ${r.file}\` with the previous version`;
}
