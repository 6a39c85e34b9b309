import {
  CompiledQuery, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql,
  type DatabaseConnection, type Driver, type QueryResult,
} from "kysely";
import type { Dialect, Store } from "../store/database.js";
import type { Migration } from "../store/migrations/index.js";

/** One thing a pending migration does, with the rows it meets in this database. */
export interface PlannedAction {
  what: "creates table" | "builds index" | "adds column" | "changes data" | "removes or renames" | "adds trigger or function" | "runs";
  /** The table it acts on (when the statement names one). */
  table?: string;
  /** Rows of that table in this database now (0 for a table an earlier step creates). */
  rows: number;
  /** The statement's own words, shortened, for a reader. */
  detail: string;
  /** Whether a server of the version running now can keep serving while and after it runs. */
  compatible: boolean;
}

export interface PlannedMigration {
  name: string;
  actions: PlannedAction[];
  /** A rough duration from this database's row counts (see RATES), in milliseconds. */
  estimateMs: number;
  /** True when every action leaves what the running version reads and writes in place (additive only). */
  runsBesideOlder: boolean;
}

// Rows a second, rounded down from one measurement on the project's shared 2-vCPU machine under
// load (load average 16): a 500,000-row table shaped like `users`, one index built over two
// columns (SQLite 0.87 s, PostgreSQL 15 1.5 s) and every row updated (0.40 s; 17.9 s, the
// PostgreSQL update rewriting each row and its index entries). Adding a nullable column or one
// with a constant default is a catalogue change on both (PostgreSQL 11+): no rows touched.
const RATES: Record<Dialect, { index: number; data: number }> = { sqlite: { index: 500_000, data: 300_000 }, postgres: { index: 300_000, data: 25_000 } };

/**
 * What the pending migrations would do to this database, without changing it: each migration is
 * run against a recording connection of the same dialect (nothing reaches the database; a query
 * the migration reads from sees no rows), and each statement it sends is described with the row
 * count of the table it touches. The names must be pending here, in order.
 */
export async function planMigrations(store: Store, pending: readonly Migration[]): Promise<PlannedMigration[]> {
  const created = new Set<string>();
  const plans: PlannedMigration[] = [];
  for (const m of pending) {
    const statements = await recordStatements(m, store.dialect);
    const actions: PlannedAction[] = [];
    for (const text of statements) {
      const a = describeStatement(text);
      const rows = a.table && !created.has(a.table) ? await countIfExists(store, a.table) : 0;
      if (a.what === "creates table" && a.table) created.add(a.table);
      actions.push({ ...a, rows });
    }
    const rate = RATES[store.dialect];
    const estimateMs = Math.ceil(actions.reduce((ms, a) => ms + (a.what === "builds index" ? a.rows / rate.index : a.what === "changes data" ? a.rows / rate.data : 0) * 1000, 0));
    plans.push({ name: m.name, actions, estimateMs, runsBesideOlder: actions.every((a) => a.compatible) });
  }
  return plans;
}

const NAME = String.raw`"?([\w$]+)"?`;
const PATTERNS: Array<[RegExp, PlannedAction["what"], boolean]> = [
  [new RegExp(String.raw`^create table (?:if not exists )?${NAME}`, "i"), "creates table", true],
  [new RegExp(String.raw`^create (?:unique )?index (?:concurrently )?(?:if not exists )?${NAME} on ${NAME}`, "i"), "builds index", true],
  [new RegExp(String.raw`^alter table ${NAME} add column`, "i"), "adds column", true],
  [new RegExp(String.raw`^alter table ${NAME} (?:drop|rename|alter)`, "i"), "removes or renames", false],
  [new RegExp(String.raw`^drop (?:table|view) (?:if exists )?${NAME}`, "i"), "removes or renames", false],
  [new RegExp(String.raw`^(?:update|delete from|insert into) ${NAME}`, "i"), "changes data", false],
  [/^(?:create (?:or replace )?(?:trigger|function)|drop (?:trigger|index))/i, "adds trigger or function", true],
];

function describeStatement(text: string): Omit<PlannedAction, "rows"> {
  const one = text.replace(/\s+/g, " ").trim();
  const detail = one.length > 110 ? `${one.slice(0, 107)}…` : one;
  for (const [re, what, compatible] of PATTERNS) {
    const m = re.exec(one);
    if (!m) continue;
    const table = what === "builds index" ? m[2] : m[1];
    // A column the running version does not send must be optional: NOT NULL needs a default.
    const safe = what === "adds column" ? !/\bnot null\b/i.test(one) || /\bdefault\b/i.test(one) : compatible;
    return { what, table, detail, compatible: safe };
  }
  // Reads (a migration looking before it acts) change nothing; anything else is said as it is.
  return { what: "runs", detail, compatible: /^(select|with|pragma)\b/i.test(one) };
}

async function countIfExists(store: Store, table: string): Promise<number> {
  try {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.id(table)}`.execute(store.db);
    return Number(rows[0]?.n ?? 0);
  } catch {
    return 0; // not there yet: an earlier migration of the list makes it
  }
}

/** The statements a migration sends, in order, from a connection that records them and answers nothing. */
async function recordStatements(m: Migration, dialect: Dialect): Promise<string[]> {
  const seen: string[] = [];
  const connection: DatabaseConnection = {
    executeQuery: async <R>(q: CompiledQuery): Promise<QueryResult<R>> => { seen.push(q.sql); return { rows: [] }; },
    streamQuery: () => { throw new Error("a migration does not stream"); },
  };
  const driver: Driver = {
    init: async () => {}, acquireConnection: async () => connection, beginTransaction: async () => {}, commitTransaction: async () => {},
    rollbackTransaction: async () => {}, releaseConnection: async () => {}, destroy: async () => {},
  };
  const db = new Kysely<any>({
    dialect: dialect === "postgres"
      ? { createAdapter: () => new PostgresAdapter(), createDriver: () => driver, createQueryCompiler: () => new PostgresQueryCompiler(), createIntrospector: (k) => new PostgresIntrospector(k) }
      : { createAdapter: () => new SqliteAdapter(), createDriver: () => driver, createQueryCompiler: () => new SqliteQueryCompiler(), createIntrospector: (k) => new SqliteIntrospector(k) },
  });
  try {
    await m.up(db, dialect);
  } finally {
    await db.destroy();
  }
  return seen;
}
