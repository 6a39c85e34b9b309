import { sql, type Kysely } from "kysely";
import type { Dialect } from "../../store/database.js";
import { toDialect, type ColumnInfo } from "./columns.js";
import type { CopyTable } from "./plan.js";

type Row = Record<string, unknown>;

/**
 * A table's rows in key order, `size` at a time: each batch starts after the last key of the one
 * before (keyset paging), so a batch costs the same at the end of a big table as at its start.
 */
export async function* readBatches(db: Kysely<any>, t: CopyTable, size: number): AsyncGenerator<Row[]> {
  const columns = sql.join(t.columns.map((c) => sql.id(c)));
  const key = sql.join(t.key.map((c) => sql.id(c)));
  let after: unknown[] | undefined;
  for (;;) {
    const where = after ? sql`where (${key}) > (${sql.join(after.map((v) => sql`${v}`))})` : sql``;
    const { rows } = await sql<Row>`select ${columns} from ${sql.id(t.name)} ${where} order by ${key} limit ${size}`.execute(db);
    if (rows.length) yield rows;
    if (rows.length < size) return;
    const last = rows[rows.length - 1];
    after = t.key.map((k) => last[k]);
  }
}

/** Inserts rows read from the other end, each value converted for the target column's kind. */
export async function insertBatch(tx: Kysely<any>, t: CopyTable, rows: Row[], target: Map<string, ColumnInfo>, dialect: Dialect): Promise<void> {
  const values = rows.map((r) => Object.fromEntries(t.columns.map((c) => [c, toDialect(r[c], target.get(c)!.kind, dialect)])));
  await tx.insertInto(t.name).values(values).execute();
}

/** How many rows a table holds. */
export async function countRows(db: Kysely<any>, table: string): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.id(table)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Where a numbering column (PostgreSQL sequence, SQLite AUTOINCREMENT) stands: the last number it
 * gave, which may be above the largest left in the table (rows deleted since), so the target never
 * hands out a number the source already used.
 */
export async function readSerial(db: Kysely<any>, dialect: Dialect, table: string, column: string): Promise<number> {
  if (dialect === "postgres") {
    const { rows } = await sql<{ v: number | string | null }>`select pg_sequence_last_value(pg_get_serial_sequence(${quoteIdent(table)}, ${column})::regclass) as v`.execute(db);
    return Number(rows[0]?.v ?? 0);
  }
  const { rows } = await sql<{ seq: number | null }>`select seq from sqlite_sequence where name = ${table}`.execute(db);
  return Number(rows[0]?.seq ?? 0);
}

/** Moves the target's numbering past `at` and past every number its table holds. */
export async function advanceSerial(tx: Kysely<any>, dialect: Dialect, table: string, column: string, at: number): Promise<void> {
  const { rows } = await sql<{ m: number | string | null }>`select max(${sql.id(column)}) as m from ${sql.id(table)}`.execute(tx);
  const next = Math.max(at, Number(rows[0]?.m ?? 0));
  if (next <= 0) return;
  if (dialect === "postgres") {
    await sql`select setval(pg_get_serial_sequence(${quoteIdent(table)}, ${column}), ${next}, true)`.execute(tx);
    return;
  }
  const { numUpdatedRows } = await tx.updateTable("sqlite_sequence").set({ seq: next }).where("name", "=", table).executeTakeFirst();
  if (!numUpdatedRows) await tx.insertInto("sqlite_sequence").values({ name: table, seq: next }).execute();
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, "\"\"")}"`;
}
