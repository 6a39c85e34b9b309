import Database from "better-sqlite3";
import { CompiledQuery } from "kysely";
import { openStore } from "../store/database.js";
import { migrateToLatest } from "../store/migrator.js";
import { migrations } from "../store/migrations/index.js";

interface SchemaObject { type: string; name: string; table: string; sql: string }
interface Column { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }

/**
 * What differs between the schema of the SQLite database `file` and the schema authsvc's own
 * migrations make (the same migrations `file` records as applied, run on an empty in-memory
 * database). Every table, column, index, trigger and view counts: a restore must not bring in a
 * trigger that writes an old password hash back, or a table or view nobody reviewed. Returns one
 * phrase per difference (empty when the schemas match), e.g. "extra trigger keep_hash on users".
 */
export async function findSchemaDifferences(file: string, applied: string[]): Promise<string[]> {
  const expected = await readReferenceSchema(applied);
  const db = new Database(file, { fileMustExist: true, readonly: true });
  try {
    const actual = readSchema(db);
    const diffs: string[] = [];
    for (const [key, o] of actual) {
      const want = expected.schema.get(key);
      if (!want) diffs.push(`extra ${describe(o)}`);
      else if (normalise(want.sql) !== normalise(o.sql)) diffs.push(o.type === "table" ? describeTableChange(o.name, expected.columns.get(o.name)!, readColumns(db, o.name)) : `changed ${describe(o)}`);
    }
    for (const [key, o] of expected.schema) if (!actual.has(key)) diffs.push(`missing ${describe(o)}`);
    return diffs;
  } finally {
    db.close();
  }
}

/** The schema the migrations named in `applied` make on an empty database. */
async function readReferenceSchema(applied: string[]): Promise<{ schema: Map<string, SchemaObject>; columns: Map<string, Column[]> }> {
  const names = new Set(applied);
  const store = openStore({ url: ":memory:" });
  try {
    await migrateToLatest(store, () => 0, migrations.filter((m) => names.has(m.name)));
    // The in-memory database is only reachable through Kysely: read sqlite_master and the columns with it.
    const rows = (await store.db.executeQuery(CompiledQuery.raw(SCHEMA_SQL) as CompiledQuery<SchemaObject>)).rows;
    const schema = new Map(rows.map((o) => [`${o.type}:${o.name}`, o]));
    const columns = new Map<string, Column[]>();
    for (const o of rows.filter((r) => r.type === "table")) {
      columns.set(o.name, (await store.db.executeQuery(CompiledQuery.raw(`pragma table_info(${quote(o.name)})`) as CompiledQuery<Column>)).rows);
    }
    return { schema, columns };
  } finally {
    await store.close();
  }
}

// Internal objects (sqlite_sequence, automatic indexes of UNIQUE and PRIMARY KEY) follow from the tables' own SQL.
const SCHEMA_SQL = "select type, name, tbl_name as \"table\", coalesce(sql, '') as sql from sqlite_master where name not like 'sqlite\\_%' escape '\\' order by type, name";

function readSchema(db: Database.Database): Map<string, SchemaObject> {
  const rows = db.prepare(SCHEMA_SQL).all() as SchemaObject[];
  return new Map(rows.map((o) => [`${o.type}:${o.name}`, o]));
}

function readColumns(db: Database.Database, table: string): Column[] {
  return db.prepare(`pragma table_info(${quote(table)})`).all() as Column[];
}

function describeTableChange(table: string, want: Column[], have: Column[]): string {
  const show = (c: Column) => `${c.name} ${c.type}${c.notnull ? " not null" : ""}${c.dflt_value !== null ? ` default ${c.dflt_value}` : ""}${c.pk ? " primary key" : ""}`;
  const wanted = new Map(want.map((c) => [c.name, show(c)]));
  const had = new Map(have.map((c) => [c.name, show(c)]));
  const parts: string[] = [];
  for (const [name, s] of had) {
    if (!wanted.has(name)) parts.push(`extra column ${s}`);
    else if (wanted.get(name) !== s) parts.push(`column ${s} (expected ${wanted.get(name)})`);
  }
  for (const [name, s] of wanted) if (!had.has(name)) parts.push(`missing column ${s}`);
  return `changed table ${table}: ${parts.length ? parts.join(", ") : "its constraints differ"}`;
}

function describe(o: SchemaObject): string {
  return o.type === "table" || o.type === "view" ? `${o.type} ${o.name}` : `${o.type} ${o.name} on ${o.table}`;
}

/** Same statement, however it was spaced or quoted. */
function normalise(text: string): string {
  return text.replace(/["`[\]]/g, "").replace(/\s+/g, " ").replace(/\s*([(),])\s*/g, "$1").trim().toLowerCase();
}

function quote(name: string): string {
  return `"${name.replace(/"/g, "\"\"")}"`;
}
