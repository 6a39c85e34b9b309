import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { Kysely } from "kysely";
import { readColumns } from "../../src/ops/db-copy/columns.js";
import { planCopy } from "../../src/ops/db-copy/plan.js";
import { advanceSerial, insertBatch } from "../../src/ops/db-copy/rows.js";
import { openStore } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrator.js";
import { migrations } from "../../src/store/migrations/index.js";
import type { Populated } from "./populate.js";

/** test/fixtures/upgrade/<commit>.json, as scripts/upgrade-fixture.mjs wrote it (upgrade-fixture-write.ts). */
export interface UpgradeFixture {
  commit: string;
  madeAt: number;
  publicUrl: string;
  populated: Populated;
  migrations: Array<{ name: string; applied_at: number }>;
  sequences: Record<string, number>;
  schema: Array<{ type: string; name: string; tbl: string; sql: string | null }>;
  tables: Record<string, { columns: string[]; rows: unknown[][] }>;
}

export function readUpgradeFixture(commit: string): UpgradeFixture {
  return JSON.parse(readFileSync(join(import.meta.dirname, "../fixtures/upgrade", `${commit}.json`), "utf8")) as UpgradeFixture;
}

/** A SQLite file with the fixture's schema exactly as that version's SQLite held it (no rows). */
export function writeFixtureSchema(f: UpgradeFixture, file: string): void {
  writeFileSync(file, "");
  const db = new Database(file);
  try {
    // Tables before what is made on them; each in the order of its name, as it was dumped.
    for (const type of ["table", "index", "trigger", "view"]) for (const o of f.schema) if (o.type === type && o.sql) db.exec(o.sql);
    const add = db.prepare("insert into authsvc_migrations (name, applied_at) values (?, ?)");
    for (const m of f.migrations) add.run(m.name, m.applied_at);
  } finally {
    db.close();
  }
}

/**
 * Puts the fixture's database into `url` (SQLite or PostgreSQL): this checkout's migrations that
 * the fixture's version had (migrations are never changed once shipped, and the SQLite schema test
 * proves they make its schema), then its rows, converted by column kind as db copy does, and the
 * numbering of its AUTOINCREMENT tables.
 */
export async function loadUpgradeFixture(f: UpgradeFixture, url: string): Promise<void> {
  const names = f.migrations.map((m) => m.name);
  const list = migrations.filter((m) => names.includes(m.name));
  if (list.length !== names.length) throw new Error(`the fixture has migrations this checkout does not: ${names.filter((n) => !list.some((m) => m.name === n)).join(", ")}`);
  const store = openStore({ url });
  try {
    await migrateToLatest(store, () => f.madeAt, list);
    const tables = await planCopy(names, list);
    await store.writeTx(async (trx) => {
      const tx = trx as unknown as Kysely<any>;
      for (const m of f.migrations) await tx.updateTable("authsvc_migrations").set({ applied_at: m.applied_at }).where("name", "=", m.name).execute();
      for (const { name } of tables) {
        const { columns, rows } = f.tables[name] ?? { columns: [], rows: [] };
        const target = await readColumns(tx, store.dialect, name);
        const objects = rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, revive(r[i])])));
        for (let i = 0; i < objects.length; i += 100) await insertBatch(tx, { name, columns, key: [], references: [] }, objects.slice(i, i + 100), target, store.dialect);
        for (const [c, info] of target) if (info.serial) await advanceSerial(tx, store.dialect, name, c, f.sequences[name] ?? 0);
      }
    });
  } finally {
    await store.close();
  }
}

/** JSON keeps a SQLite blob as Node's Buffer JSON. */
function revive(v: unknown): unknown {
  const b = v as { type?: string; data?: number[] } | null;
  return b && typeof b === "object" && b.type === "Buffer" && Array.isArray(b.data) ? Buffer.from(b.data) : v;
}
