import { sql, type Kysely } from "kysely";
import type { Store } from "./database.js";
import { migrations as allMigrations, type Migration } from "./migrations/index.js";

export interface MigrationStatus {
  name: string;
  appliedAt: number | null;
}

// Arbitrary constant key for pg_advisory_xact_lock: "authsvc" migrations.
const PG_LOCK_KEY = 0x61757468;

async function ensureTable(db: Kysely<any>): Promise<void> {
  await db.schema.createTable("authsvc_migrations").ifNotExists()
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("applied_at", "bigint", (c) => c.notNull())
    .execute();
}

/**
 * Applies pending migrations in one transaction under a lock (PostgreSQL advisory lock; SQLite's
 * BEGIN IMMEDIATE write lock), so two processes migrating at once apply each step exactly once.
 * Returns the names applied, in order.
 */
export async function migrateToLatest(store: Store, now: () => number = Date.now, list: readonly Migration[] = allMigrations): Promise<string[]> {
  return store.writeTx(async (tx) => {
    const db = tx as unknown as Kysely<any>;
    if (store.dialect === "postgres") {
      await sql`select pg_advisory_xact_lock(${PG_LOCK_KEY})`.execute(db);
      // `?schema=name` of a fresh database: create it here, under the lock, because two concurrent
      // `create schema if not exists` can still collide on PostgreSQL's catalog.
      if (store.pgSchema) await sql`create schema if not exists ${sql.id(store.pgSchema)}`.execute(db);
    }
    await ensureTable(db);
    const rows = await db.selectFrom("authsvc_migrations").select("name").execute();
    const done = new Set(rows.map((r: { name: string }) => r.name));
    const unknown = [...done].filter((n) => !list.some((m) => m.name === n));
    if (unknown.length) throw new Error(`the database has migrations this version does not know (${unknown.join(", ")}); is it newer than this authsvc?`);
    const applied: string[] = [];
    for (const m of list) {
      if (done.has(m.name)) continue;
      await m.up(db, store.dialect);
      await db.insertInto("authsvc_migrations").values({ name: m.name, applied_at: now() }).execute();
      applied.push(m.name);
    }
    return applied;
  });
}

/**
 * Every migration the database records as applied, in the order applied, whether this version
 * knows it or not (a newer version's); empty when it was never migrated.
 */
export async function readAppliedMigrations(db: Kysely<any>): Promise<Array<{ name: string; appliedAt: number }>> {
  try {
    const rows = await db.selectFrom("authsvc_migrations").select(["name", "applied_at"]).orderBy("applied_at").orderBy("name").execute();
    return rows.map((r: { name: string; applied_at: number }) => ({ name: r.name, appliedAt: Number(r.applied_at) }));
  } catch (err) {
    if (/no such table|does not exist/i.test((err as Error).message)) return [];
    throw err;
  }
}

/** Applied and pending migrations, without changing anything. */
export async function migrationStatus(store: Store, list: readonly Migration[] = allMigrations): Promise<MigrationStatus[]> {
  const at = new Map((await readAppliedMigrations(store.db as unknown as Kysely<any>)).map((r) => [r.name, r.appliedAt]));
  return list.map((m) => ({ name: m.name, appliedAt: at.get(m.name) ?? null }));
}

/** True when every known migration is applied (readiness). */
export async function isMigrated(store: Store): Promise<boolean> {
  return (await migrationStatus(store)).every((m) => m.appliedAt !== null);
}
