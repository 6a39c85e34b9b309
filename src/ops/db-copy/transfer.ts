import { sql, type Kysely } from "kysely";
import type { Store } from "../../store/database.js";
import { OpsError } from "../backup.js";
import type { ColumnInfo } from "./columns.js";
import { TableDigest } from "./digest.js";
import type { CopyTable } from "./plan.js";
import { advanceSerial, countRows, insertBatch, readBatches, readSerial } from "./rows.js";

export interface CopyProgress { table: string; tableRows: number; tableTotal: number; rows: number; total: number; phase: "copy" | "verify" }
export interface TableReport { table: string; rows: number; checksum: string }
export type Columns = Map<string, { source: Map<string, ColumnInfo>; target: Map<string, ColumnInfo> }>;

interface Transfer {
  source: Store;
  target: Store;
  /** The source on another connection, outside the snapshot: what it holds now. */
  recount: Kysely<any>;
  tables: CopyTable[];
  columns: Columns;
  options: { batchSize?: number; onProgress?(p: CopyProgress): void; stopped?(): boolean };
}

/** A copy fills an empty database: any row in the target is refused, by table. */
export async function refuseRows(db: Kysely<any>, tables: CopyTable[], where: string): Promise<void> {
  const full: string[] = [];
  for (const t of tables) { const n = await countRows(db, t.name); if (n) full.push(`${t.name} ${n}`); }
  if (full.length) throw new OpsError(`the target ${where} is not empty (${full.join(", ")} rows): db copy only fills an empty database; give a new one (PostgreSQL: a new database or ?schema=), or drop this one's tables first`);
}

/**
 * The copy itself: the source read in one snapshot, the target written in one transaction, then
 * read back and compared, and the source counted again, before the transaction commits.
 */
export async function copyInSnapshot(x: Transfer): Promise<TableReport[]> {
  const { source, target, tables, columns, options: o } = x;
  return readSnapshot(source, async (snap) => {
    const totals = new Map<string, number>();
    for (const t of tables) totals.set(t.name, await countRows(snap, t.name));
    const total = [...totals.values()].reduce((a, b) => a + b, 0);
    return target.db.transaction().execute(async (trx) => {
      const tx = trx as unknown as Kysely<any>;
      await refuseRows(tx, tables, target.description);
      const digests = new Map<string, TableDigest>();
      let rows = 0;
      for (const t of tables) {
        const cols = columns.get(t.name)!;
        const digest = new TableDigest(t.columns.map((c) => cols.source.get(c)!.kind));
        for await (const batch of readBatches(snap, t, batchRows(o.batchSize, t))) {
          if (o.stopped?.()) throw interrupted();
          for (const r of batch) digest.add(t.columns.map((c) => r[c]));
          await insertBatch(tx, t, batch, cols.target, target.dialect);
          rows += batch.length;
          o.onProgress?.({ table: t.name, tableRows: digest.rows, tableTotal: totals.get(t.name)!, rows, total, phase: "copy" });
        }
        for (const c of t.columns) {
          if (cols.target.get(c)!.serial) await advanceSerial(tx, target.dialect, t.name, c, cols.source.get(c)!.serial ? await readSerial(snap, source.dialect, t.name, c) : 0);
        }
        digests.set(t.name, digest);
      }
      const reports = await verify(tx, x, digests);
      await refuseMovedSource(x.recount, tables, totals);
      return reports;
    });
  });
}
/** Reads the target back inside its transaction: a table whose count or checksum differs is not committed. */
async function verify(tx: Kysely<any>, x: Transfer, digests: Map<string, TableDigest>): Promise<TableReport[]> {
  const { tables, columns, options: o } = x;
  const reports: TableReport[] = [];
  const total = [...digests.values()].reduce((a, d) => a + d.rows, 0);
  let rows = 0;
  for (const t of tables) {
    const cols = columns.get(t.name)!;
    const back = new TableDigest(t.columns.map((c) => cols.target.get(c)!.kind));
    for await (const batch of readBatches(tx, t, batchRows(o.batchSize, t))) {
      if (o.stopped?.()) throw interrupted();
      for (const r of batch) back.add(t.columns.map((c) => r[c]));
      rows += batch.length;
      o.onProgress?.({ table: t.name, tableRows: back.rows, tableTotal: digests.get(t.name)!.rows, rows, total, phase: "verify" });
    }
    const want = digests.get(t.name)!;
    if (back.rows !== want.rows || back.checksum !== want.checksum) {
      throw new OpsError(`${t.name} does not read back as it was read (source ${want.rows} rows, checksum ${want.checksum.slice(0, 16)}…; target ${back.rows} rows, checksum ${back.checksum.slice(0, 16)}…): not committed, the target is unchanged`);
    }
    reports.push({ table: t.name, rows: want.rows, checksum: want.checksum });
  }
  return reports;
}

function interrupted(): OpsError {
  return new OpsError("interrupted: nothing was written to the target (the copy is one transaction); run the command again to start over", 130);
}

/** At most `batchSize` rows, and at most ~30,000 parameters per INSERT (SQLite's and PostgreSQL's limits are above). */
function batchRows(batchSize: number | undefined, t: CopyTable): number {
  return Math.max(1, Math.min(batchSize ?? 500, Math.floor(30_000 / t.columns.length)));
}

/**
 * Runs `fn` on one connection holding a read snapshot of the source: PostgreSQL REPEATABLE READ
 * READ ONLY, SQLite a read transaction (WAL: writers may go on; we see the database as it was).
 */
async function readSnapshot<T>(store: Store, fn: (db: Kysely<any>) => Promise<T>): Promise<T> {
  return store.db.connection().execute(async (conn) => {
    const db = conn as unknown as Kysely<any>;
    await sql.raw(store.dialect === "postgres" ? "start transaction isolation level repeatable read, read only" : "begin").execute(db);
    try {
      // SQLite takes its snapshot at the first read, not at BEGIN.
      await sql`select count(*) from authsvc_migrations`.execute(db);
      return await fn(db);
    } finally {
      await sql.raw("rollback").execute(db).catch(() => {});
    }
  });
}

/**
 * Counts the source again, outside the snapshot: a table whose count moved while it was copied
 * was being written (a server, an operator command), and those rows would be missing from the
 * target. Nothing is committed then.
 */
async function refuseMovedSource(db: Kysely<any>, tables: CopyTable[], before: Map<string, number>): Promise<void> {
  const moved: string[] = [];
  for (const t of tables) {
    const n = await countRows(db, t.name);
    if (n !== before.get(t.name)) moved.push(`${t.name} ${before.get(t.name)} -> ${n}`);
  }
  if (moved.length) throw new OpsError(`the source changed while it was copied (${moved.join(", ")} rows): something is still writing to it. Stop every server and command using it, then run db copy again; nothing was written to the target`);
}
