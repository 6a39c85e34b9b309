import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { sql, type Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { copyDatabase } from "../../src/ops/db-copy/copy.js";
import { planCopy } from "../../src/ops/db-copy/plan.js";
import { holdServeLock } from "../../src/ops/serve-lock.js";
import { isPostgresUrl, openStore } from "../../src/store/database.js";
import { migrateToLatest, readAppliedMigrations } from "../../src/store/migrator.js";
import { migrations, type Migration } from "../../src/store/migrations/index.js";
import { backends, sqliteBackend } from "../helpers/backends.js";
import { spawnBin } from "../helpers/bin.js";
import { runCli } from "../helpers/cli.js";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });
const pg = backends.find((b) => b.name === "postgres");
const targetBackend = pg ?? sqliteBackend;

async function database(backend = sqliteBackend): Promise<string> {
  const db = await backend.create();
  cleanup.push(db.drop);
  return db.url;
}

/** A migrated source with one user and `events` audit rows (`list`: the migrations it is made with). */
async function source(events: number, list: readonly Migration[] = migrations, backend = sqliteBackend): Promise<string> {
  const url = await database(backend);
  const store = openStore({ url });
  try {
    await migrateToLatest(store, Date.now, list);
    await store.db.insertInto("users").values({ id: "u1", email: "a@example.com", time_joined: 1, updated_at: 1, primary_user_id: null }).execute();
    for (let i = 0; i < events; i += 500) {
      await store.db.insertInto("events").values(Array.from({ length: Math.min(500, events - i) }, (_, j) => ({ at: i + j, type: "test.event", user_id: "u1", data: "{}", admin_id: null }))).execute();
    }
  } finally {
    await store.close();
  }
  return url;
}

/** Rows in every copied table; a SQLite target the failed copy made and removed again holds none. */
async function rowsIn(url: string): Promise<number> {
  if (!isPostgresUrl(url) && !existsSync(url)) return 0;
  const store = openStore({ url, mustExist: true });
  try {
    let n = 0;
    for (const t of await planCopy(migrations.map((m) => m.name))) n += Number((await sql<{ n: number }>`select count(*) as n from ${sql.id(t.name)}`.execute(store.db)).rows[0].n);
    return n;
  } finally {
    await store.close();
  }
}

describe(`db copy, interrupted and refused (to ${targetBackend.name})`, () => {
  it("killed mid-copy, the target holds no row; the same command run again copies everything", async () => {
    const from = await source(8_000);
    const to = await database(targetBackend);
    const child = spawnBin(["db", "copy", "--from", from, "--to", to, "--batch-size", "20"]);
    let seen = "";
    await new Promise<void>((ok, fail) => {
      child.stderr!.on("data", (d) => { seen += d; if (seen.includes("copied users")) ok(); });
      child.once("exit", () => fail(new Error(`db copy ended before it was killed:\n${seen}`)));
    });
    child.kill("SIGKILL");
    expect((await child.result).signal).toBe("SIGKILL");
    expect(await rowsIn(to)).toBe(0);
    const again = await runCli(["db", "copy", "--from", from, "--to", to, "--batch-size", "1000"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^copied \d+ tables, 8001 rows /);
    expect(await rowsIn(to)).toBe(8_001);
  }, 60_000);

  it("stopped between batches (Ctrl-C), nothing is committed and it says so", async () => {
    const from = await source(300);
    const to = await database(targetBackend);
    let batches = 0;
    await expect(copyDatabase({ from, to, batchSize: 50, stopped: () => ++batches > 3 })).rejects.toMatchObject({
      exitCode: 130, message: "interrupted: nothing was written to the target (the copy is one transaction); run the command again to start over",
    });
    expect(await rowsIn(to)).toBe(0);
  });

  it("a source written while it is copied is refused before anything is committed", async () => {
    const from = await source(300);
    const to = await database(targetBackend);
    const writer = openStore({ url: from, mustExist: true });
    cleanup.push(() => writer.close());
    let wrote = false;
    const onProgress = () => {
      if (wrote) return;
      wrote = true;
      void writer.db.insertInto("events").values({ at: 1, type: "late", user_id: null, data: null, admin_id: null }).execute();
    };
    await expect(copyDatabase({ from, to, batchSize: 100, onProgress })).rejects.toThrow(/^the source changed while it was copied \(events 300 -> 301 rows\): something is still writing to it\. Stop every server and command using it, then run db copy again; nothing was written to the target$/);
    expect(await rowsIn(to)).toBe(0);
  });

  it("refuses a source a server runs on, a source from a newer version, a missing source and one database named twice", async () => {
    const from = await source(1);
    const to = await database(targetBackend);
    const release = holdServeLock(from)!;
    const live = await runCli(["db", "copy", "--from", from, "--to", to]);
    release();
    expect(live.code).toBe(1);
    expect(live.stderr).toContain(`authsvc serve is running on ${from} (it holds ${from}-serve.lock): stop it first.`);
    const newer = await source(1, [...migrations, { name: "999-from-the-future", up: async () => {} }]);
    const r = await runCli(["db", "copy", "--from", newer, "--to", to]);
    expect(r.stderr).toMatch(/was migrated by a newer authsvc \(999-from-the-future unknown to this one\): copy it with that version/);
    // A SQLite target the refused copy would have made is not left behind.
    const file = join(mkdtempSync(join(tmpdir(), "authsvc-copy-")), "new.db");
    expect((await runCli(["db", "copy", "--from", newer, "--to", file])).code).toBe(1);
    expect(readdirSync(dirname(file))).toEqual([]);
    expect((await runCli(["db", "copy", "--from", `${from}.missing`, "--to", to])).stderr).toContain(`no database at ${from}.missing`);
    const same = await runCli(["db", "copy", "--from", from, "--to", from]);
    expect(same).toMatchObject({ code: 2, stderr: expect.stringContaining("--from and --to name the same database") });
    // Refused before the target was touched: not even migrated.
    const target = openStore({ url: to });
    expect(await readAppliedMigrations(target.db as unknown as Kysely<any>)).toEqual([]);
    await target.close();
  });
});

/** A table of every kind of column the dialects hold differently (a migration this test adds). */
const kinds: Migration = {
  name: "999-kinds",
  up: async (db, dialect) => {
    const pgType = (pgName: string, sqliteName: string) => (dialect === "postgres" ? pgName : sqliteName) as "text";
    await db.schema.createTable("copy_kinds").addColumn("id", "integer", (c) => c.primaryKey())
      .addColumn("flag", "boolean").addColumn("bytes", pgType("bytea", "blob")).addColumn("doc", pgType("jsonb", "json"))
      .addColumn("at", pgType("timestamptz", "timestamp")).addColumn("ratio", "double precision").addColumn("big", "bigint").execute();
  },
};

describe.each(backends.map((b) => [b.name, b] as const))("db copy converts by column kind, through %s", (_, middle) => {
  it("booleans, bytes, JSON, timestamps, floats and bigints arrive as the other dialect holds them, and come back unchanged", async () => {
    const list = [...migrations, kinds];
    const from = await source(0, list);
    const store = openStore({ url: from });
    await store.db.insertInto("copy_kinds" as never).values([
      { id: 1, flag: 1, bytes: Buffer.from([0, 1, 2, 255]), doc: "{\"b\":1,\"a\":[true,null]}", at: "2026-01-02T03:04:05.006Z", ratio: 0.25, big: 9007199254740991 },
      { id: 2, flag: 0, bytes: null, doc: null, at: null, ratio: null, big: null },
    ] as never).execute();
    await store.close();
    const there = await database(middle);
    const back = await database();
    await copyDatabase({ from, to: there, migrations: list });
    await copyDatabase({ from: there, to: back, migrations: list });
    const read = async (url: string) => {
      const s = openStore({ url, mustExist: true });
      try { return await (s.db as unknown as Kysely<any>).selectFrom("copy_kinds").selectAll().orderBy("id").execute(); } finally { await s.close(); }
    };
    if (middle.name === "postgres") {
      expect(await read(there)).toEqual([
        { id: 1, flag: true, bytes: Buffer.from([0, 1, 2, 255]), doc: { a: [true, null], b: 1 }, at: new Date("2026-01-02T03:04:05.006Z"), ratio: 0.25, big: 9007199254740991 },
        { id: 2, flag: false, bytes: null, doc: null, at: null, ratio: null, big: null },
      ]);
    }
    const [one, two] = await read(back);
    expect({ ...one, doc: JSON.parse(one.doc) }).toEqual({ id: 1, flag: 1, bytes: Buffer.from([0, 1, 2, 255]), doc: { a: [true, null], b: 1 }, at: "2026-01-02T03:04:05.006Z", ratio: 0.25, big: 9007199254740991 });
    expect(two).toEqual({ id: 2, flag: 0, bytes: null, doc: null, at: null, ratio: null, big: null });
  });
});
