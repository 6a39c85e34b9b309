import { afterEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { openStore, type Store } from "../../src/store/database.js";
import { migrations } from "../../src/store/migrations/index.js";
import { isMigrated, migrateToLatest, migrationStatus } from "../../src/store/migrator.js";
import { backends } from "../helpers/backends.js";
import { runBin } from "../helpers/bin.js";

const allNames = migrations.map((m) => m.name);

describe.each(backends)("migrations on $name", (backend) => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()!();
  });
  async function freshStore(): Promise<{ store: Store; url: string }> {
    const db = await backend.create();
    const store = openStore({ url: db.url });
    cleanup.push(db.drop, () => store.close());
    return { store, url: db.url };
  }
  async function appliedRows(store: Store): Promise<string[]> {
    const rows = await sql<{ name: string }>`select name from authsvc_migrations order by name`.execute(store.db);
    return rows.rows.map((r) => r.name);
  }

  it("applies every migration to an empty database, then nothing on a re-run", async () => {
    const { store } = await freshStore();
    expect(await isMigrated(store)).toBe(false);
    expect((await migrationStatus(store)).every((m) => m.appliedAt === null)).toBe(true);
    expect(await migrateToLatest(store, () => 1_700_000_000_000)).toEqual(allNames);
    expect(await migrateToLatest(store)).toEqual([]);
    expect(await appliedRows(store)).toEqual(allNames);
    expect(await migrationStatus(store)).toEqual(allNames.map((name) => ({ name, appliedAt: 1_700_000_000_000 })));
    expect(await isMigrated(store)).toBe(true);
    // The schema is really there: every table answers.
    for (const table of ["users", "email_password_credentials", "third_party_identities", "verified_emails", "one_time_tokens", "sessions", "refresh_tokens", "signing_keys", "mail_outbox", "caught_mail", "events"]) {
      await sql`select count(*) from ${sql.table(table)}`.execute(store.db);
    }
  });

  it("refuses a database that has migrations this version does not know", async () => {
    const { store } = await freshStore();
    await migrateToLatest(store);
    await sql`insert into authsvc_migrations (name, applied_at) values ('999-future', 1)`.execute(store.db);
    await expect(migrateToLatest(store)).rejects.toThrow(/999-future/);
  });

  it("rolls a failed migration back completely", async () => {
    const { store } = await freshStore();
    const broken = [...migrations, { name: "002-broken", up: async (db: any) => {
      await db.schema.createTable("half_done").addColumn("id", "text").execute();
      throw new Error("boom");
    } }];
    await expect(migrateToLatest(store, Date.now, broken)).rejects.toThrow("boom");
    // Nothing of the failed run stayed: not even 001, which ran in the same transaction.
    expect((await migrationStatus(store)).every((m) => m.appliedAt === null)).toBe(true);
    await expect(sql`select * from half_done`.execute(store.db)).rejects.toThrow();
    expect(await migrateToLatest(store)).toEqual(allNames);
  });

  it("two concurrent migrators (two processes running the built CLI) apply each step once and both succeed", async () => {
    const { store, url } = await freshStore();
    const runs = await Promise.all([1, 2, 3].map(() => runBin(["migrate", "--json", "--database", url])));
    for (const r of runs) expect(r, r.stderr).toMatchObject({ code: 0 });
    const applied = runs.flatMap((r) => JSON.parse(r.stdout).applied as string[]);
    expect(applied.sort()).toEqual([...allNames].sort());
    expect(await appliedRows(store)).toEqual(allNames);
  });

  if (backend.name === "postgres") {
    it("two stores migrating at once in one process apply each step once", async () => {
      const { store, url } = await freshStore();
      const other = openStore({ url });
      cleanup.push(() => other.close());
      const [a, b] = await Promise.all([migrateToLatest(store), migrateToLatest(other)]);
      expect([...a, ...b].sort()).toEqual([...allNames].sort());
      expect(await appliedRows(store)).toEqual(allNames);
    });

    it("creates the ?schema= schema when it does not exist yet", async () => {
      const { url } = await freshStore();
      const u = new URL(url);
      const schema = `${u.searchParams.get("schema")}_new`;
      u.searchParams.set("schema", schema);
      const store = openStore({ url: u.toString() });
      cleanup.push(async () => {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(store.db);
        await store.close();
      });
      expect(await migrateToLatest(store)).toEqual(allNames);
      const r = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_schema = ${schema} and table_name = 'users'`.execute(store.db);
      expect(r.rows[0].n).toBe(1);
    });
  }
});
