import { CompiledQuery, type Kysely } from "kysely";
import { openStore } from "../../store/database.js";
import { migrateToLatest } from "../../store/migrator.js";
import { migrations as allMigrations, type Migration } from "../../store/migrations/index.js";

/** One table to copy: its columns and primary key as the migrations make them, and what it references. */
export interface CopyTable {
  name: string;
  columns: string[];
  /** The primary key's columns, in key order: batches are read in this order (keyset paging). */
  key: string[];
  /** Tables its foreign keys point at (copied before it). */
  references: string[];
}

interface TableInfo { name: string; pk: number }
interface ForeignKey { table: string }

/**
 * The tables a copy moves, derived from the migrations rather than listed: the migrations named in
 * `applied` (the source's) run on an empty in-memory database, and every table they make is one to
 * copy, the kernel's and every room's alike, so a new room's tables are copied as soon as its
 * migration is in the list (store/migrations/index.ts). Ordered so that a table comes after the
 * tables it references (parents before children, whatever order the migrations made them in).
 * Not copied: authsvc_migrations (the target is migrated itself) and SQLite's own tables.
 */
export async function planCopy(applied: readonly string[], list: readonly Migration[] = allMigrations): Promise<CopyTable[]> {
  const names = new Set(applied);
  const store = openStore({ url: ":memory:" });
  try {
    await migrateToLatest(store, () => 0, list.filter((m) => names.has(m.name)));
    const db = store.db as unknown as Kysely<any>;
    const raw = async <R>(text: string) => (await db.executeQuery(CompiledQuery.raw(text) as CompiledQuery<R>)).rows;
    const tables = await raw<{ name: string }>("select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' and name <> 'authsvc_migrations' order by rowid");
    const found: CopyTable[] = [];
    for (const { name } of tables) {
      const columns = await raw<TableInfo>(`pragma table_info("${name}")`);
      const key = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
      // Keyset paging needs a key; every table the migrations make has one (a test keeps it so).
      if (key.length === 0) throw new Error(`table ${name} has no primary key: db copy cannot page through it`);
      const references = [...new Set((await raw<ForeignKey>(`pragma foreign_key_list("${name}")`)).map((f) => f.table).filter((t) => t !== name))];
      found.push({ name, columns: columns.map((c) => c.name), key, references });
    }
    return orderByReferences(found);
  } finally {
    await store.close();
  }
}

/** Parents before children, otherwise the order the migrations made them; a cycle cannot be copied row by row. */
function orderByReferences(tables: CopyTable[]): CopyTable[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const order: CopyTable[] = [];
  const visit = (t: CopyTable, path: string[]) => {
    if (done.has(t.name)) return;
    if (path.includes(t.name)) throw new Error(`tables reference each other in a circle (${[...path, t.name].join(" -> ")}): db copy cannot order them`);
    for (const r of t.references) { const parent = byName.get(r); if (parent) visit(parent, [...path, t.name]); }
    done.add(t.name);
    order.push(t);
  };
  for (const t of tables) visit(t, []);
  return order;
}
