import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeDeadData } from "../../src/core/purge.js";
import { insertEvent } from "../../src/store/events.js";
import { backends } from "../helpers/backends.js";
import { spawnBin } from "../helpers/bin.js";
import { runCli } from "../helpers/cli.js";
import { createTestAdmin, dashboardSession } from "../helpers/dashboard.js";
import { CookieJar, signUpInto, startOauthServer, type OauthServer } from "../helpers/oauth.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { PASSWORD } from "../helpers/ways-in.js";
import { KEY } from "../http/admin/admin-client.js";

/**
 * The audit log (docs/security.md, "Audit log") through HTTP, the CLI and the dashboard on both
 * databases: each security event leaves one entry with who, whom, from where and when, in the
 * event's transaction; filters, pages, --follow, and the retention the purge keeps.
 */

const UA = "Mozilla/5.0 (X11; Linux x86_64) AuditTest/1.0";
const audit = async (s: OauthServer, query = "") => {
  const res = await fetch(`${s.url}/admin/v1/audit${query}`, { headers: { authorization: `Bearer ${KEY}` } });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
const signIn = (s: OauthServer, email: string, password = PASSWORD) => postJson(`${s.url}/auth/signin`, credentials(email, password), { rid: "emailpassword", "user-agent": UA, "st-auth-mode": "header" });

describe.each(backends)("the audit log ($name)", (backend) => {
  let s: OauthServer;
  beforeAll(async () => { s = await startOauthServer(backend, { adminApiKey: KEY }); });
  afterAll(async () => { await s?.close(); });

  it("a sign-in, its failure and a ban each leave one entry: who, whom, from where, when", async () => {
    const email = `audited-${backend.name}@example.com`;
    await signUpInto(new CookieJar(), s.url, email);
    const ok = await signIn(s, email);
    const userId = ((await ok.json()) as { user: { id: string } }).user.id;
    await s.app.ctx.deferred.drain();
    const before = s.clock.now();
    expect(((await (await signIn(s, email, "a wrong password entirely")).json()) as { status: string }).status).toBe("WRONG_CREDENTIALS_ERROR");
    await s.app.ctx.deferred.drain();
    await fetch(`${s.url}/admin/v1/users/${userId}/ban`, { method: "POST", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, body: JSON.stringify({ reason: "audit" }) });

    const signIns = (await audit(s, `?userId=${userId}&action=session.created`)).body.entries;
    expect(signIns.length).toBeGreaterThanOrEqual(2); // sign-up's session, then the sign-in's
    expect(signIns[0]).toMatchObject({ actor: `user:${userId}`, userId, action: "session.created", ip: "127.0.0.1", userAgent: UA });
    const [failed] = (await audit(s, `?action=user.sign_in_failed&since=${before}`)).body.entries;
    // A failure names no account (a guess at an unknown address looks the same), but says from where.
    expect(failed).toMatchObject({ actor: "anonymous", userId: null, ip: "127.0.0.1", userAgent: UA, details: { method: "emailpassword" } });
    const [ban] = (await audit(s, `?userId=${userId}&action=user.banned`)).body.entries;
    expect(ban).toMatchObject({ actor: "admin-api", details: { reason: "audit", source: "admin-api" } });
    expect(ban.at).toBe(s.clock.now());
    // Prefixes, the CLI with the same filters.
    expect((await audit(s, `?userId=${userId}&action=user.*`)).body.entries.map((e: { action: string }) => e.action)).toContain("user.banned");
    const cli = await runCli(["audit", "--user", email, "--action", "user.banned", "--database", s.app.config.database]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(new RegExp(`^\\S+Z  user\\.banned  admin-api  user=${userId}  ip=127\\.0\\.0\\.1  ua="node"  \\{"reason":"audit"`));
    const json = await runCli(["audit", "--user", userId, "--limit", "2", "--json", "--database", s.app.config.database]);
    expect(json.stdout.trim().split("\n").map((l) => JSON.parse(l).userId)).toEqual([userId, userId]);
  });

  it("an entry commits with its event, or not at all", async () => {
    const marker = `audit-rollback-${backend.name}`;
    await expect(s.app.store.writeTx(async (tx) => {
      await insertEvent(tx, { at: s.clock.now(), type: "user.banned", userId: null, data: { reason: marker } });
      throw new Error("the change failed");
    })).rejects.toThrow("the change failed");
    const all = (await audit(s, "?action=user.banned&limit=500")).body.entries;
    expect(all.filter((e: { details: { reason?: string } }) => e.details?.reason === marker)).toEqual([]);
  });

  it("pages newest first with a cursor; bad filters are a clear 400", async () => {
    const first = await audit(s, "?limit=2");
    expect(first.body.entries).toHaveLength(2);
    expect(first.body.entries[0].at).toBeGreaterThanOrEqual(first.body.entries[1].at);
    const second = await audit(s, `?limit=2&cursor=${first.body.next}`);
    expect(second.body.entries[0].id).not.toBe(first.body.entries[1].id);
    expect(second.body.entries[0].at).toBeLessThanOrEqual(first.body.entries[1].at);
    for (const [q, message] of [["?limit=0", /^limit must be between 1 and 500/], ["?limit=x", "limit must be a whole number"], ["?action=DROP%20TABLE", /^action must be/], ["?since=yesterday", /^since must be a time/], ["?cursor=abc", "cursor is not one this server gave"]] as const) {
      const r = await audit(s, q);
      expect(r.status, q).toBe(400);
      expect(r.body.message).toMatch(message);
    }
    expect((await runCli(["audit", "--since", "last week", "--database", s.app.config.database])).code).toBe(2);
  });

  it("the dashboard's person page shows their entries", async () => {
    const email = `audited-dash-${backend.name}@example.com`;
    await signUpInto(new CookieJar(), s.url, email);
    const res = await signIn(s, email);
    const userId = ((await res.json()) as { user: { id: string } }).user.id;
    const dashboard = await dashboardSession(s.url, await createTestAdmin(s.app, { email: `auditor-${backend.name}@example.com` }));
    const page = await (await dashboard.get(`/admin/users/${userId}`)).text();
    expect(page).toContain('id="audit-h"');
    expect(page).toMatch(/session\.created<\/td><td class="mono">user:/);
    expect(page).toContain("AuditTest/1.0");
  });

  it("keeps entries for --audit-retention: the purge deletes older ones", async () => {
    const total = async () => Number((await s.app.store.db.selectFrom("audit_log").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
    expect(await total()).toBeGreaterThan(0);
    s.clock.advance(89 * 86_400_000);
    await purgeDeadData(s.app.ctx);
    expect(await total()).toBeGreaterThan(0);
    s.clock.advance(2 * 86_400_000);
    await purgeDeadData(s.app.ctx);
    expect(await total()).toBe(0);
  });
});

describe("authsvc audit --follow (a real process)", () => {
  it("prints the entries written after it started, until interrupted", async () => {
    const { createTestApp } = await import("../helpers/test-app.js");
    const t = await createTestApp({ config: { adminApiKey: KEY } });
    try {
      await signUpInto(new CookieJar(), t.url, "follow@example.com");
      const child = spawnBin(["audit", "--follow", "--action", "user.banned", "--database", t.config.database]);
      const seen = async (re: RegExp) => {
        const deadline = Date.now() + 20_000;
        while (!re.test(await readOut()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        expect(await readOut()).toMatch(re);
      };
      let out = "";
      child.stdout!.on("data", (d) => { out += d; });
      const readOut = async () => out;
      await seen(/no entries|^$/);
      await new Promise((r) => setTimeout(r, 1500));
      const users = (await (await fetch(`${t.url}/admin/v1/users?email=follow@example.com`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as { users: Array<{ id: string }> };
      await fetch(`${t.url}/admin/v1/users/${users.users[0].id}/ban`, { method: "POST", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, body: JSON.stringify({ reason: "followed" }) });
      await seen(/user\.banned {2}admin-api .*"reason":"followed"/);
      child.kill("SIGINT");
      const r = await child.result;
      expect(r.code).toBe(0);
    } finally {
      await t.close();
    }
  });
});
