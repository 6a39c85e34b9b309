import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/database.js";
import { describeConnectionMode, readConnectionMode } from "../../src/store/pg-connection.js";
import { namedStatements, prepareQuery } from "../../src/store/prepared.js";
import { backends, postgresBackend } from "../helpers/backends.js";
import { spawnBin } from "../helpers/bin.js";
import { freePort } from "../helpers/serve-process.js";
import { signUp } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const mode = (url: string) => {
  const u = new URL(url);
  return { ...readConnectionMode(u), left: u.toString() };
};

describe("how authsvc reaches PostgreSQL: the URL and the host say", () => {
  it("?pooler= (and Prisma's pgbouncer=true) is ours: read, then removed from what pg gets", () => {
    expect(mode("postgres://a@db:5432/auth?pooler=transaction&schema=auth")).toEqual({ pooler: "transaction", decidedBy: "url", left: "postgres://a@db:5432/auth?schema=auth" });
    expect(mode("postgres://a@db:6432/auth?pooler=session")).toEqual({ pooler: "none", decidedBy: "url", left: "postgres://a@db:6432/auth" });
    expect(mode("postgres://a@db/auth?pooler=none")).toMatchObject({ pooler: "none", decidedBy: "url" });
    expect(mode("postgres://a@db/auth?pgbouncer=true")).toEqual({ pooler: "transaction", decidedBy: "url", left: "postgres://a@db/auth" });
    expect(() => mode("postgres://a@db/auth?pooler=statement")).toThrow("unknown pooler=statement in the database URL: say pooler=transaction");
  });

  it("known poolers by host and port: Neon's -pooler hosts, Supabase's 6543, PgBouncer's 6432; anything else is direct", () => {
    expect(mode("postgres://u:p@ep-cool-1234-pooler.eu-central-1.aws.neon.tech/neondb?sslmode=require")).toMatchObject({ pooler: "transaction", decidedBy: "host" });
    expect(mode("postgres://u.ref:p@aws-0-eu-central-1.pooler.supabase.com:6543/postgres")).toMatchObject({ pooler: "transaction", decidedBy: "port" });
    expect(mode("postgres://u.ref:p@aws-0-eu-central-1.pooler.supabase.com:5432/postgres")).toMatchObject({ pooler: "none", decidedBy: "default" });
    expect(mode("postgres://u@10.0.0.5:6432/auth")).toMatchObject({ pooler: "transaction", decidedBy: "port" });
    expect(mode("postgres://u@db.internal:5432/auth")).toMatchObject({ pooler: "none", decidedBy: "default" });
    expect(describeConnectionMode({ pooler: "transaction", decidedBy: "port" })).toBe("through a transaction-mode pooler (recognised by its port): no named prepared statements, the schema set per transaction (?pooler=session if it is not one)");
    expect(describeConnectionMode({ pooler: "none", decidedBy: "default" })).toBe("direct connection: named prepared statements (add ?pooler=transaction behind a transaction-mode pooler)");
  });
});

const pgUrl = process.env.AUTHSVC_TEST_PG_URL ?? "";
const pooled = new URL(pgUrl || "postgres://x").searchParams.get("pooler") === "transaction";

describe.each(backends.filter((b) => b.name === "postgres"))("PostgreSQL sessions that must not outlive a transaction ($name, %s)", (backend) => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => { [a, b] = await Promise.all([createTestApp({ backend }), createTestApp({ backend })]); });
  afterAll(async () => { await Promise.all([a?.close(), b?.close()]); });

  it("the store says how it connects: what the tests' URL says", () => {
    expect(a.app.store.pgMode).toEqual(pooled ? { pooler: "transaction", decidedBy: "url" } : { pooler: "none", decidedBy: "default" });
  });

  it("serve says at start how it reaches the database", async () => {
    const child = spawnBin(["serve", "--database", a.config.database, "--port", String(await freePort()), "--no-mail-catcher"], { env: { AUTHSVC_LOG_LEVEL: "warn" } });
    try {
      const banner = await new Promise<string>((ok, fail) => {
        let seen = "";
        child.stderr!.on("data", (d) => { seen += d; if (/database: .*\n.*\n/.test(seen)) ok(seen); });
        child.once("exit", () => fail(new Error(`serve exited:\n${seen}`)));
      });
      expect(banner).toContain("  database:   postgres://");
      expect(banner).toMatch(pooled
        ? /\n {14}through a transaction-mode pooler \(said in the URL\): no named prepared statements/
        : /\n {14}direct connection: named prepared statements \(add \?pooler=transaction behind a transaction-mode pooler\)/);
    } finally {
      child.kill("SIGTERM");
      await child.result;
    }
  });

  it("two servers on two schemas, signing up and in at once, each see only their own people", async () => {
    const emails = Array.from({ length: 12 }, (_, i) => `p${i}@example.com`);
    const answers = await Promise.all(emails.flatMap((e, i) => [signUp((i % 2 ? a : b).url, e, "header"), signUp((i % 2 ? a : b).url, e, "header", "/auth/signin")]));
    // A sign-in racing its own sign-up may find nobody yet; what matters is no 500 and no leak.
    for (const r of answers) expect(r.res.status).toBe(200);
    const users = async (t: TestApp) => (await t.app.store.db.selectFrom("users").select("email").orderBy("email").execute()).map((u) => u.email);
    expect(await users(a)).toEqual(emails.filter((_, i) => i % 2).sort());
    expect(await users(b)).toEqual(emails.filter((_, i) => !(i % 2)).sort());
  });
});

describe.each(backends.filter((b) => b.name === "postgres"))("a pooler the URL did not name ($name)", (backend) => {
  let db: { url: string; drop(): Promise<void> };
  let store: Store;
  let detected = 0;
  beforeAll(async () => {
    db = await postgresBackend.create();
    // One connection, so the statement this test withdraws is the one the next call names.
    store = openStore({ url: db.url, poolSize: 1, onPoolerDetected: () => { detected++; } });
  });
  afterAll(async () => { await store?.close(); await db?.drop(); });

  const echo = prepareQuery<[number], { v: number }>(1, (d, x) => d.selectNoFrom((eb) => eb.val(x).as("v")));

  it(pooled
    ? "through the pooler, a hot statement is never named: many at once on several connections all answer"
    : "a named statement the server says does not exist (another session answered) switches to unnamed statements, once, and the call still answers", async () => {
    if (pooled) {
      const many = openStore({ url: db.url, poolSize: 8 });
      try {
        const rows = await Promise.all(Array.from({ length: 64 }, (_, i) => echo(many.db, i)));
        expect(rows.map((r) => Number(r.rows[0].v))).toEqual(Array.from({ length: 64 }, (_, i) => i));
      } finally { await many.close(); }
      return;
    }
    expect(Number((await echo(store.db, 1)).rows[0].v)).toBe(1);
    // What a transaction-mode pooler does to a named statement: the next server connection has never seen it.
    const name = [...namedStatements].find(([text]) => text.includes("select $1"))![1];
    await sql.raw(`deallocate ${name}`).execute(store.db);
    expect(Number((await echo(store.db, 2)).rows[0].v)).toBe(2);
    expect(store.pgMode).toEqual({ pooler: "transaction", decidedBy: "error" });
    expect(detected).toBe(1);
    expect(Number((await echo(store.db, 3)).rows[0].v)).toBe(3);
    expect(detected).toBe(1);
  });
});
