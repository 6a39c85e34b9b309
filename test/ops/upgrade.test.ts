import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readColumns } from "../../src/ops/db-copy/columns.js";
import { planMigrations } from "../../src/ops/migration-plan.js";
import { findSchemaDifferences } from "../../src/ops/schema-check.js";
import { openStore } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrator.js";
import { migrations, type Migration } from "../../src/store/migrations/index.js";
import { backends } from "../helpers/backends.js";
import { spawnBin } from "../helpers/bin.js";
import { runCli } from "../helpers/cli.js";
import { closedPort } from "../helpers/oidc-provider.js";
import { expectPeopleServed, serveFilled } from "../helpers/populate.js";
import { freePort } from "../helpers/serve-process.js";
import { FIXTURE_SECRET } from "../helpers/upgrade-fixture-write.js";
import { loadUpgradeFixture, readUpgradeFixture, writeFixtureSchema } from "../helpers/upgrade-fixture.js";

/** The release before issue 47 (the commit this work branched from), as its own code filled it. */
const fixture = readUpgradeFixture("74faee7");
const had = fixture.migrations.map((m) => m.name);
const pending = migrations.map((m) => m.name).filter((n) => !had.includes(n));
const newest = migrations[migrations.length - 1].name;

describe("the upgrade fixture (authsvc at 74faee7)", () => {
  it("has rows in every table of that version, and this checkout's migrations make exactly its SQLite schema", async () => {
    for (const [table, { rows }] of Object.entries(fixture.tables)) expect(rows.length, table).toBeGreaterThan(0);
    expect(Object.keys(fixture.tables).length).toBeGreaterThanOrEqual(40);
    const dir = mkdtempSync(join(tmpdir(), "authsvc-fixture-schema-"));
    try {
      writeFixtureSchema(fixture, join(dir, "schema.db"));
      expect(await findSchemaDifferences(join(dir, "schema.db"), had)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(backends)("upgrading a database authsvc 74faee7 wrote, on $name", (backend) => {
  let db: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    db = await backend.create();
    await loadUpgradeFixture(fixture, db.url);
  });
  afterAll(async () => { await db?.drop(); });

  it("migrate --plan says what is pending, changing nothing; --check exits 3 when something is, 0 when not", async () => {
    const plan = await runCli(["migrate", "--plan", "--database", db.url]);
    expect(plan.code, plan.stderr).toBe(0);
    if (pending.length === 0) {
      expect(plan.stdout).toBe(`nothing pending: ${db.url} is at ${newest}, this authsvc's newest migration\n`);
    } else {
      expect(plan.stdout).toContain(`${pending.length} migration(s) pending on `);
      expect(plan.stdout).toContain(`from ${had[had.length - 1]} to ${newest}`);
      for (const n of pending) expect(plan.stdout).toMatch(new RegExp(`^${n}  `, "m"));
    }
    const check = await runCli(["migrate", "--check", "--database", db.url]);
    expect(check.code).toBe(pending.length ? 3 : 0);
    const status = await runCli(["migrate", "--status", "--json", "--database", db.url]);
    expect((JSON.parse(status.stdout) as Array<{ appliedAt: number | null }>).filter((m) => m.appliedAt === null)).toHaveLength(pending.length);
  });

  it("plans a migration against this database's rows: what each statement does, to how many rows, and whether the running version can go on", async () => {
    const next: Migration = {
      name: "900-next",
      up: async (d) => {
        await d.schema.alterTable("users").addColumn("nickname", "text").execute();
        await d.schema.alterTable("sessions").addColumn("kind", "text", (c) => c.notNull()).execute();
        await d.schema.createIndex("events_at_idx").on("events").column("at").execute();
        await d.updateTable("users").set({ nickname: "x" }).execute();
        await d.schema.createTable("notes").addColumn("id", "text", (c) => c.primaryKey()).execute();
        await d.schema.createIndex("notes_id_idx").on("notes").column("id").execute();
      },
    };
    const store = openStore({ url: db.url });
    try {
      const [p] = await planMigrations(store, [next]);
      const rows = (t: string) => fixture.tables[t].rows.length;
      expect(p.actions.map((a) => [a.what, a.table, a.rows, a.compatible])).toEqual([
        ["adds column", "users", rows("users"), true],
        ["adds column", "sessions", rows("sessions"), false],
        ["builds index", "events", rows("events"), true],
        ["changes data", "users", rows("users"), false],
        ["creates table", "notes", 0, true],
        ["builds index", "notes", 0, true],
      ]);
      expect(p.runsBesideOlder).toBe(false);
      // Planned, not run: the database has no such column or table.
      expect((await readColumns(store.db as never, store.dialect, "users")).has("nickname")).toBe(false);
    } finally {
      await store.close();
    }
  });

  it("upgrades (after a restore point on SQLite when there is anything to apply), and its people go on as before", async () => {
    const up = await runCli(["migrate", "--database", db.url]);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toContain(pending.length ? `${pending.length} migration(s) applied` : "already up to date");
    if (pending.length && backend.name === "sqlite") expect(up.stderr).toContain("restore point before migrating: ");
    expect((await runCli(["migrate", "--check", "--database", db.url])).code).toBe(0);
    const s = await serveFilled(db.url, { port: await closedPort(), now: fixture.madeAt + 60_000, secret: FIXTURE_SECRET, start: false });
    try {
      await expectPeopleServed(s, fixture.populated);
    } finally {
      await s.close();
    }
  });
});

describe.each(backends)("a database a newer authsvc migrated, on $name", (backend) => {
  it("is refused by serve (with --no-migrate too), migrate, migrate --check and the admin commands (exit 4), naming both versions and what it does not know", async () => {
    const db = await backend.create();
    try {
      expect((await runCli(["migrate", "--database", db.url])).code).toBe(0);
      const store = openStore({ url: db.url });
      await store.db.insertInto("authsvc_migrations" as never).values({ name: "999-from-the-future", applied_at: Date.now() } as never).execute();
      await store.close();
      const said = /is at migration 999-from-the-future, from a newer authsvc than this one \(authsvc [^,]+, commit [^,]+, whose newest migration is \S+\); it does not know 999-from-the-future\. Run the authsvc that migrated it \(or a later one\)/;
      for (const args of [["migrate"], ["migrate", "--check"], ["users", "list"]]) {
        const r = await runCli([...args, "--database", db.url]);
        expect(r.code).toBe(4);
        expect(r.stderr).toMatch(said);
      }
      for (const extra of [[], ["--no-migrate"]]) {
        const r = await spawnBin(["serve", "--database", db.url, "--port", String(await freePort()), "--no-mail-catcher", ...extra]).result;
        expect(r.code).toBe(4);
        expect(r.stderr).toMatch(new RegExp(`authsvc: could not start: .*${said.source}`));
        expect(r.stderr).not.toContain("authsvc listening");
      }
    } finally {
      await db.drop();
    }
  });
});

describe.each(backends)("serve on a database of an older release, on $name", (backend) => {
  it("keeps a way back before it migrates: a checked copy beside a SQLite file, what to run on PostgreSQL", async () => {
    const db = await backend.create();
    const dir = mkdtempSync(join(tmpdir(), "authsvc-upgrade-"));
    try {
      const older = migrations.slice(0, -2);
      const store = openStore({ url: db.url });
      await migrateToLatest(store, Date.now, older);
      await store.db.insertInto("users").values({ id: "u1", email: "a@example.com", time_joined: 1, updated_at: 1, primary_user_id: null }).execute();
      await store.close();
      const child = spawnBin(["serve", "--database", db.url, "--port", String(await freePort()), "--no-mail-catcher", "--log-level", "info", ...(backend.name === "sqlite" ? ["--backup-dir", dir] : [])]);
      let seen = "";
      await new Promise<void>((ok, fail) => {
        child.stderr!.on("data", (d) => { seen += d; if (seen.includes("authsvc listening")) ok(); });
        child.once("exit", () => fail(new Error(`serve exited:\n${seen}`)));
      });
      child.kill("SIGTERM");
      await child.result;
      const at = older[older.length - 1].name;
      if (backend.name === "postgres") {
        expect(seen).toContain(`from migration ${at} to ${migrations[migrations.length - 1].name}: authsvc takes no restore point on PostgreSQL; take one before upgrading, over a direct connection (not a transaction-mode pooler): pg_dump -Fc --schema=`);
        return;
      }
      const line = seen.split("\n").find((l) => l.includes("restore point before migrating"))!;
      const file = (JSON.parse(line) as { file: string }).file;
      expect(file.startsWith(join(dir, `test-at-${at}-`))).toBe(true);
      expect(existsSync(file)).toBe(true);
      // The copy is the database as it was: the older migrations and its row; the database itself moved on.
      const copy = openStore({ url: file, mustExist: true });
      expect((await copy.db.selectFrom("authsvc_migrations" as never).select("name" as never).execute()).length).toBe(older.length);
      expect(await copy.db.selectFrom("users").select("email").execute()).toEqual([{ email: "a@example.com" }]);
      await copy.close();
      expect((await runCli(["migrate", "--check", "--database", db.url])).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await db.drop();
    }
  });
});
