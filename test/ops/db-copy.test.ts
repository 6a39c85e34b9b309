import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planCopy } from "../../src/ops/db-copy/plan.js";
import { holdServeLock } from "../../src/ops/serve-lock.js";
import { openStore } from "../../src/store/database.js";
import { migrations } from "../../src/store/migrations/index.js";
import { backends, type Backend } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { eventually } from "../helpers/mail.js";
import { closedPort } from "../helpers/oidc-provider.js";
import { expectPeopleServed, populateEveryTable, serveFilled, type Populated } from "../helpers/populate.js";
import { startReceiver } from "../helpers/webhook-receiver.js";

const SECRET = "a server secret that is long enough for tests 0123456789";
const names = migrations.map((m) => m.name);

async function countAll(url: string): Promise<Record<string, number>> {
  const store = openStore({ url, mustExist: true });
  try {
    const out: Record<string, number> = {};
    for (const t of await planCopy(names)) {
      const r = await store.db.selectFrom(t.name as never).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      out[t.name] = Number((r as { n: number }).n);
    }
    return out;
  } finally {
    await store.close();
  }
}

const pg = backends.find((b) => b.name === "postgres");
const sqlite = backends.find((b) => b.name === "sqlite");
// Both ways when PostgreSQL is there; SQLite to SQLite otherwise (CI's pooler pass: PostgreSQL to PostgreSQL).
const directions: Array<[Backend, Backend]> = pg && sqlite ? [[sqlite, pg], [pg, sqlite]] : pg ? [[pg, pg]] : [[sqlite!, sqlite!]];

describe.each(directions.map(([a, b]) => [`${a.name} to ${b.name}`, a, b] as const))("authsvc db copy, %s", (_, from, to) => {
  let source: { url: string; drop(): Promise<void> };
  let target: { url: string; drop(): Promise<void> };
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  let filled: Populated;
  let port: number;
  let at: number;
  let before: Record<string, number>;
  let queued: string[];

  beforeAll(async () => {
    [source, target, rx, port] = await Promise.all([from.create(), to.create(), startReceiver(), closedPort()]);
    const s = await serveFilled(source.url, { port, now: Date.now(), secret: SECRET, start: false });
    try {
      filled = await populateEveryTable(s, rx.url);
      at = s.clock.now();
    } finally {
      await s.close();
    }
    before = await countAll(source.url);
    const store = openStore({ url: source.url, mustExist: true });
    const db = store.db as unknown as Kysely<any>;
    queued = (await db.selectFrom("webhook_deliveries").select("message_id").where("status", "=", "pending").execute()).map((d: { message_id: string }) => d.message_id);
    await store.close();
  }, 60_000);
  afterAll(async () => { await rx?.close(); await source?.drop(); await target?.drop(); });

  it("the source has rows in every table the migrations make (the kernel's and every room's)", () => {
    const empty = Object.entries(before).filter(([, n]) => n === 0).map(([t]) => t);
    expect(empty, "tables without data in the fixture: give them some in test/helpers/populate.ts").toEqual([]);
    expect(Object.keys(before).length).toBeGreaterThanOrEqual(40);
  });

  it("copies every table, verified by count and checksum; a second copy into it is refused, changing nothing", async () => {
    const r = await runCli(["db", "copy", "--from", source.url, "--to", target.url, "--batch-size", "7", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { tables: Array<{ table: string; rows: number; checksum: string }>; migrations: string[]; pending: string[] };
    expect(Object.fromEntries(report.tables.map((t) => [t.table, t.rows]))).toEqual(before);
    expect(report.migrations).toEqual(names);
    expect(report.pending).toEqual([]);
    for (const t of report.tables) expect(t.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(r.stderr).toContain("copied events:");
    expect(await countAll(target.url)).toEqual(before);
    // Copying again into the now filled target is refused, and changes nothing there.
    const again = await runCli(["db", "copy", "--from", source.url, "--to", target.url]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/the target .* is not empty \(users \d+, .*\): db copy only fills an empty database/);
    expect(await countAll(target.url)).toEqual(before);
  });

  it("the target serves what the source held: sign-in, refresh, OAuth refresh, TOTP, the organization claim, the queued webhook deliveries", async () => {
    const s = await serveFilled(target.url, { port, now: at + 60_000, secret: SECRET, start: true });
    try {
      await expectPeopleServed(s, filled);
      // The deliveries the source queued go out from here, signed with the endpoint's copied secret.
      expect(queued.length).toBeGreaterThan(0);
      await eventually(async () => queued.every((id) => rx.received.some((d) => d.id === id)));
      for (const d of rx.received) expect(rx.verify(filled.webhook.secret, d)).toBeTruthy();
    } finally {
      await s.close();
    }
  }, 60_000);
});
