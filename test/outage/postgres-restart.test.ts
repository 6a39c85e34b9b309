import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { createPgCluster, findPgBin, type PgCluster } from "../helpers/pg-cluster.js";
import { credentials, postJson, readTokens } from "../helpers/session-client.js";
import type { ServeChild } from "../ops/serve-child.js";
import { useOutageServe, waitUntil } from "./outage-serve.js";

// The cluster is the test's own (initdb into a temporary folder): CI's database is never restarted.
const PG_BIN = findPgBin();
if (!PG_BIN) process.stderr.write("NOTE: no PostgreSQL server binaries in /usr/lib/postgresql: the PostgreSQL restart test did NOT run (CI installs them)\n");

const RESTARTS = 9;
const WORKERS = 4;

interface Tally { ok: number; unavailable: number; violations: string[] }

/**
 * Issue 26: a real `serve` on a PostgreSQL that is stopped (fast and immediate, in turn) and
 * started again nine times while clients sign up, sign in and make authenticated GETs. Every
 * answer must be a success or a 503 with Retry-After; the process must live through all of it;
 * every sign-up that was acknowledged must sign in afterwards; and service must come back by
 * itself within a second of the database's return.
 */
describe.runIf(PG_BIN)("a PostgreSQL of the test's own, restarted under load and made read-only", () => {
  let cluster: PgCluster;
  let child: ServeChild;
  let base: string;
  let log: () => string;
  const serve = useOutageServe();

  beforeAll(async () => {
    cluster = await createPgCluster(PG_BIN!);
    serve.cleanup.push(() => cluster.destroy());
    ({ child, base, log } = await serve.start(cluster.url));
  }, 60_000);

  it("never ends the process, answers 503 + Retry-After while it is down, loses no acknowledged sign-up and resumes within a second", async () => {
    const tally: Tally = { ok: 0, unavailable: 0, violations: [] };
    const acknowledged: string[] = [];
    let running = true;
    let n = 0;

    // One answer: 2xx counts, 503 must carry Retry-After and a JSON message, anything else is a failure.
    const judge = async (what: string, res: Response | Error): Promise<Record<string, unknown> | undefined> => {
      if (res instanceof Error) { tally.violations.push(`${what}: ${res.message}`); return undefined; }
      const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      if (res.status === 200) { tally.ok++; return body; }
      if (res.status === 503 && res.headers.get("retry-after") && typeof body.message === "string") { tally.unavailable++; return undefined; }
      tally.violations.push(`${what}: ${res.status} retry-after=${res.headers.get("retry-after")} ${JSON.stringify(body)}`);
      return undefined;
    };
    const send = (url: string, init?: RequestInit) => fetch(url, init).catch((err: Error) => err);

    const worker = async (w: number) => {
      let token: string | undefined;
      while (running) {
        const email = `w${w}-${n++}@example.com`;
        const up = await send(`${base}/auth/signup`, { method: "POST", headers: { "content-type": "application/json", "st-auth-mode": "header" }, body: JSON.stringify(credentials(email)) });
        const upBody = await judge("sign-up", up);
        if (upBody) {
          if (upBody.status === "OK") acknowledged.push(email);
          else tally.violations.push(`sign-up: ${JSON.stringify(upBody)}`);
        }
        if (acknowledged.length) {
          const who = acknowledged[Math.floor(Math.random() * acknowledged.length)];
          const res = await send(`${base}/auth/signin`, { method: "POST", headers: { "content-type": "application/json", "st-auth-mode": "header" }, body: JSON.stringify(credentials(who)) });
          const body = await judge("sign-in", res instanceof Error ? res : res.clone());
          if (body?.status === "OK" && !(res instanceof Error)) token = readTokens(res, "header").access;
          else if (body) tally.violations.push(`sign-in of ${who}: ${JSON.stringify(body)}`);
        }
        if (token) await judge("authenticated GET", await send(`${base}/auth/user/email/verify`, { headers: { authorization: `Bearer ${token}` } }));
      }
    };

    // Polls a sign-in of a known account until it succeeds; returns how long that took.
    const timeToService = async (who: string): Promise<number> => {
      const t0 = performance.now();
      for (;;) {
        const res = await send(`${base}/auth/signin`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(credentials(who)) });
        if (!(res instanceof Error) && res.status === 200) return performance.now() - t0;
        if (performance.now() - t0 > 10_000) throw new Error("service did not resume within 10 s");
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    const probe = `probe-${Date.now()}@example.com`;
    expect((await postJson(`${base}/auth/signup`, credentials(probe))).status).toBe(200);
    const workers = Array.from({ length: WORKERS }, (_, w) => worker(w));
    const resumed: number[] = [];
    try {
      for (let i = 0; i < RESTARTS; i++) {
        await waitUntil(() => tally.ok > 20 * (i + 1), 10_000); // traffic flows before each stop
        await cluster.stop(i % 2 ? "immediate" : "fast");
        const failedBefore = tally.unavailable;
        await waitUntil(() => tally.unavailable > failedBefore + 3, 10_000); // requests meet the outage
        if (i === 0) {
          // A scrape works while the database is away, and shows the outage going on.
          const during = await fetch(`${base}/metrics`);
          expect(during.status).toBe(200);
          expect(await during.text()).toMatch(/^authsvc_database_outage\{reason="unreachable"\} 1$/m);
          expect((await fetch(`${base}/readyz`)).status).toBe(503);
        }
        await cluster.start();
        resumed.push(await timeToService(probe));
        // One outage, one pair of log lines: its end is noticed by itself, without any request.
        await waitUntil(() => count(log(), "database outage ended") === i + 1, 5_000);
      }
    } finally {
      running = false;
      await Promise.all(workers);
    }

    expect(child.exitCode, log()).toBeNull();
    expect(child.signalCode).toBeNull();
    expect(tally.violations, tally.violations.slice(0, 10).join("\n")).toEqual([]);
    expect(tally.unavailable).toBeGreaterThan(RESTARTS * 3);
    for (const ms of resumed) expect(ms).toBeLessThan(1000);
    // Every acknowledged sign-up is really there.
    for (const email of acknowledged) {
      const res = await postJson(`${base}/auth/signin`, credentials(email));
      expect(await res.json(), email).toMatchObject({ status: "OK" });
    }
    expect(acknowledged.length).toBeGreaterThan(RESTARTS * 5);
    // Logged once per outage (start and end), never as an internal error with a stack.
    const lines = log().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as { msg: string });
    expect(lines.filter((l) => l.msg === "internal error" || l.msg === "request failed")).toEqual([]);
    expect(lines.filter((l) => l.msg === "database outage began")).toHaveLength(RESTARTS);
    expect(lines.filter((l) => l.msg === "database outage ended")).toHaveLength(RESTARTS);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(Number(/^authsvc_database_unavailable_total\{reason="unreachable"\} (\d+)/m.exec(metrics)?.[1])).toBeGreaterThan(0);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  }, 120_000);

  it("a read-only PostgreSQL: writes answer 503 'read-only', /readyz says so, reads work; writes resume when it is writable again", async () => {
    const email = `ro-${Date.now()}@example.com`;
    const up = await postJson(`${base}/auth/signup`, credentials(email), { "st-auth-mode": "header" });
    const token = readTokens(up, "header", (await up.json()) as Record<string, unknown>).access;
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    const setReadOnly = async (on: boolean) => {
      await admin.query(`alter system set default_transaction_read_only = ${on ? "on" : "off"}`);
      await admin.query("select pg_reload_conf()");
    };
    try {
      await setReadOnly(true);
      // The reload reaches every server process shortly after pg_reload_conf returns.
      await waitUntil(async () => (await fetch(`${base}/readyz`)).status === 503, 5_000);
      const ready = await fetch(`${base}/readyz`);
      expect(await ready.json()).toMatchObject({ reason: expect.stringMatching(/^database read-only/) });
      const refused = await postJson(`${base}/auth/signup`, credentials(`x-${email}`));
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBeTruthy();
      expect(await refused.json()).toMatchObject({ reason: "database_read_only" });
      const read = await fetch(`${base}/auth/user/email/verify`, { headers: { authorization: `Bearer ${token}` } });
      expect(read.status, await read.clone().text()).toBe(200);
    } finally {
      await setReadOnly(false);
      await admin.end();
    }
    await waitUntil(async () => (await postJson(`${base}/auth/signup`, credentials(`y-${email}`))).status === 200, 5_000);
    // Ready again once the outage is over: the check passes and nothing has failed for half a second.
    await waitUntil(async () => (await fetch(`${base}/readyz`)).status === 200, 5_000);
    expect(log()).toContain('"msg":"database outage began","reason":"read-only"');
    expect(child.exitCode).toBeNull();
  }, 30_000);
});

function count(log: string, msg: string): number {
  return log.split("\n").filter((l) => l.includes(`"msg":"${msg}"`)).length;
}
