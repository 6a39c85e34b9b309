import type { Kysely } from "kysely";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/app.js";
import { testConfig, type Config } from "../../src/config.js";
import { startHttpServer, type HttpServer } from "../../src/http/server.js";
import { generateCode } from "../../src/methods/totp/secrets.js";
import { planCopy } from "../../src/ops/db-copy/plan.js";
import { holdServeLock } from "../../src/ops/serve-lock.js";
import { openStore } from "../../src/store/database.js";
import { migrations } from "../../src/store/migrations/index.js";
import { createManualClock } from "../../src/util/clock.js";
import { backends, type Backend } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { eventually } from "../helpers/mail.js";
import { closedPort } from "../helpers/oidc-provider.js";
import { populateEveryTable, type Populated } from "../helpers/populate.js";
import { jwtPayload, postWithSession, refresh, signUp } from "../helpers/session-client.js";
import { startReceiver } from "../helpers/webhook-receiver.js";

const SECRET = "a server secret that is long enough for tests 0123456789";
const names = migrations.map((m) => m.name);

/** authsvc on a database, listening on `port` (its public URL and OAuth issuer), on a clock of its own. */
async function serveOn(url: string, port: number, now: number, start: boolean): Promise<{ app: App; url: string; clock: ReturnType<typeof createManualClock>; close(): Promise<void> }> {
  const base = `http://127.0.0.1:${port}`;
  const clock = createManualClock(now);
  const config: Config = testConfig({ database: url, port, publicUrl: base, websiteUrl: base, corsOrigins: [base], hostedPages: true, secret: SECRET, webhookTimeoutMs: 2000 });
  const app = await createApp(config, { clock });
  await app.migrate();
  if (start) await app.start();
  const server: HttpServer = await startHttpServer(app.http, { port, host: "127.0.0.1", bodyLimit: config.bodyLimit, logger: app.ctx.logger });
  return { app, url: base, clock, close: async () => { await server.stop(0); await app.close(); } };
}

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
    const s = await serveOn(source.url, port, Date.now(), false);
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
    // What the copy wrote is read back the same way: a copy back would have the same checksums.
    const again = await runCli(["db", "copy", "--from", source.url, "--to", target.url]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/the target .* is not empty \(users \d+, .*\): db copy only fills an empty database/);
    expect(await countAll(target.url)).toEqual(before);
  });

  it("the target serves what the source held: sign-in, refresh, OAuth refresh, TOTP, the organization claim, the queued webhook deliveries", async () => {
    const s = await serveOn(target.url, port, at + 60_000, true);
    try {
      // The session started on the source refreshes here; the password signs in.
      expect((await refresh(s.url, filled.ada.tokens)).status).toBe(200);
      const ada = await signUp(s.url, filled.ada.email, "header", "/auth/signin");
      expect(ada.json.status).toBe("OK");
      expect(jwtPayload(ada.tokens.access)["st-role"]).toEqual({ v: ["editor"], t: expect.any(Number) });
      // The OAuth grant's refresh token, issued by the source, rotates here.
      const config = await oidc.discovery(new URL(s.url), filled.oauth.clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
      const next = await oidc.refreshTokenGrant(config, filled.oauth.refreshToken, { resource: filled.oauth.resource });
      expect(next.refresh_token).toBeTruthy();
      expect(next.refresh_token).not.toBe(filled.oauth.refreshToken);
      // The second factor: the device's secret (sealed with the server secret) gives a code accepted here.
      const tim = await signUp(s.url, filled.totp.email, "header", "/auth/signin");
      expect(jwtPayload(tim.tokens.access)["st-mfa"].v).toBe(false);
      const ok = await postWithSession(s.url, "/totp/verify", tim.tokens, { totp: generateCode(filled.totp.secret, s.clock.now()) });
      expect(ok.json).toEqual({ status: "OK" });
      expect(jwtPayload(ok.tokens!.access)["st-mfa"].v).toBe(true);
      // The organization's owner signs in with the claim of the organization they are active in.
      const olga = await signUp(s.url, filled.org.email, "header", "/auth/signin");
      expect(jwtPayload(olga.tokens.access).org).toMatchObject({ slug: filled.org.slug, role: "owner" });
      // The deliveries the source queued go out from here, signed with the endpoint's copied secret.
      expect(queued.length).toBeGreaterThan(0);
      await eventually(async () => queued.every((id) => rx.received.some((d) => d.id === id)));
      for (const d of rx.received) expect(rx.verify(filled.webhook.secret, d)).toBeTruthy();
    } finally {
      await s.close();
    }
  }, 60_000);
});
