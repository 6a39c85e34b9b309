import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeDeadData } from "../../src/core/purge.js";
import { webhookEvents } from "../../src/rooms.js";
import { listEvents } from "../../src/store/events.js";
import { SUPPORT_SESSION_MS } from "../../src/support-sessions/support.js";
import { backends } from "../helpers/backends.js";
import { createTestAdmin, dashboardSession, type DashboardClient, type TestAdmin } from "../helpers/dashboard.js";
import { CookieJar, signUpInto, startOauthServer, type OauthServer } from "../helpers/oauth.js";
import { authHeaders, credentials, modeHeaders, postJson, readTokens, refresh, type Tokens } from "../helpers/session-client.js";
import { PASSWORD } from "../helpers/ways-in.js";
import { KEY } from "../http/admin/admin-client.js";

/**
 * Support sessions (docs/security.md, "Support sessions") through the dashboard, the hand-over
 * link and the API, on both databases: started with a reason and the admin's own code (refused
 * without them), its token says who acts, it ends after 15 minutes and cannot refresh past them,
 * it cannot change credentials, factors or logins, it is listed and audited, and a ban or "sign
 * out everywhere" ends it.
 */

const adminApi = async (s: OauthServer, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${s.url}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { "content-type": "application/json" }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
const payloadOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString("utf8")) as Record<string, any>;
const call = (s: OauthServer, method: string, path: string, t: Tokens, body?: unknown) =>
  fetch(`${s.url}/auth${path}`, { method, headers: { ...authHeaders(t), ...(body === undefined ? {} : { "content-type": "application/json" }) }, body: body === undefined ? undefined : JSON.stringify(body) });

/** A verified password user, and their own session in header mode. */
async function person(s: OauthServer, email: string): Promise<{ userId: string; own: Tokens }> {
  await signUpInto(new CookieJar(), s.url, email);
  const res = await postJson(`${s.url}/auth/signin`, credentials(email, PASSWORD), { rid: "emailpassword", ...modeHeaders("header") });
  const json = (await res.json()) as Record<string, any>;
  expect(json.status).toBe("OK");
  return { userId: json.user.id, own: readTokens(res, "header") };
}

describe.each(backends)("support sessions ($name)", (backend) => {
  let s: OauthServer;
  let admin: TestAdmin;
  let dashboard: DashboardClient;
  beforeAll(async () => {
    s = await startOauthServer(backend, { adminApiKey: KEY });
    admin = await createTestAdmin(s.app);
    dashboard = await dashboardSession(s.url, admin);
  });
  afterAll(async () => { await s?.close(); });

  /** Starts one from the person page as a browser does, follows the one-time link: its cookie-mode tokens. */
  async function start(userId: string, reason = "cannot find the export button"): Promise<{ tokens: Tokens; link: string }> {
    const res = await dashboard.post(`/admin/users/${userId}/support/start`, { reason, code: admin.code() });
    expect(res.status).toBe(303);
    const link = res.headers.get("location")!;
    expect(link.startsWith(`${s.url}/auth/support-session?token=`)).toBe(true);
    const handed = await fetch(link, { redirect: "manual" });
    expect(handed.status).toBe(303);
    expect(handed.headers.get("location")).toBe(s.app.ctx.config.websiteUrl);
    return { tokens: readTokens(handed, "cookie"), link };
  }

  it("starts with a reason and the admin's own code; its token carries the act claim; the link works once; listed and audited", async () => {
    const { userId, own } = await person(s, `helped-${backend.name}@example.com`);
    const { tokens, link } = await start(userId);
    const p = payloadOf(tokens.access);
    expect(p.sub).toBe(userId);
    expect(p.act).toEqual({ sub: `admin:${admin.id}`, email: admin.email, reason: "cannot find the export button" });
    expect(p.exp * 1000).toBeLessThanOrEqual(s.clock.now() + SUPPORT_SESSION_MS);
    // It acts as the person: the app's own API answers with their account.
    const me = await call(s, "GET", "/account/me", tokens);
    expect(me.status).toBe(200);
    expect(((await me.json()) as any).user.id).toBe(userId);

    // The one-time link: a second use sets nothing.
    const again = await fetch(link, { redirect: "manual" });
    expect(again.status).toBe(400);
    expect(again.headers.getSetCookie()).toEqual([]);

    // The person sees it among their sessions, by the admin; so do the admin API and the dashboard.
    const mine = (await (await call(s, "GET", "/account/sessions", own)).json()) as { sessions: Array<{ supportBy: string | null; current: boolean }> };
    expect(mine.sessions.filter((x) => x.supportBy === admin.email)).toHaveLength(1);
    expect(mine.sessions.find((x) => x.current)?.supportBy).toBeNull();
    const listed = await adminApi(s, "GET", `/users/${userId}/sessions`);
    expect(listed.body.sessions.filter((x: any) => x.supportBy === admin.email)).toHaveLength(1);
    const page = await (await dashboard.get(`/admin/users/${userId}`)).text();
    expect(page).toContain(`support session by ${admin.email}`);

    // In the audit log, by the admin, with the reason; and a webhook event.
    const audit = await adminApi(s, "GET", `/audit?userId=${encodeURIComponent(userId)}&action=support_session.started`);
    expect(audit.status).toBe(200);
    expect(audit.body.entries).toHaveLength(1);
    expect(audit.body.entries[0]).toMatchObject({ actor: `admin:${admin.id}`, action: "support_session.started" });
    expect(JSON.stringify(audit.body.entries[0])).toContain("cannot find the export button");
    expect(webhookEvents.types).toEqual(expect.arrayContaining(["support_session.started", "support_session.ended"]));
  });

  it("is refused without the admin's code, with a wrong one, or without a reason: nothing opens", async () => {
    const { userId } = await person(s, `unhelped-${backend.name}@example.com`);
    for (const form of [{ reason: "help", code: "" }, { reason: "help", code: "000000" }, { reason: "  ", code: admin.code() }]) {
      const res = await dashboard.post(`/admin/users/${userId}/support/start`, form);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(`/admin/users/${userId}`);
    }
    const page = await (await dashboard.get(`/admin/users/${userId}`)).text();
    expect(page).toContain("No support session");
    expect(await listEvents(s.app.store.db, { type: "support_session.started", userId })).toHaveLength(0);
    const listed = await adminApi(s, "GET", `/users/${userId}/sessions`);
    expect(listed.body.sessions.filter((x: any) => x.supportBy !== null)).toEqual([]);
  });

  it("cannot change the password, add a login, add a TOTP device or change the address: 403 SUPPORT_SESSION_REFUSED, nothing changed", async () => {
    const email = `guarded-${backend.name}@example.com`;
    const { userId } = await person(s, email);
    const { tokens } = await start(userId);
    const refusals = [
      await call(s, "POST", "/account/password", tokens, { currentPassword: PASSWORD, newPassword: "a brand new passphrase here" }),
      await call(s, "POST", "/totp/device", tokens, { deviceName: "mine" }),
      await call(s, "POST", "/account/email", tokens, { email: `other-${backend.name}@example.com`, password: PASSWORD }),
      // Adding a login to the session's person (a sign-up asking to link with the session user).
      await fetch(`${s.url}/auth/signup`, {
        method: "POST", headers: { ...authHeaders(tokens), "content-type": "application/json", rid: "emailpassword" },
        body: JSON.stringify({ ...credentials(`added-${backend.name}@example.com`, PASSWORD), shouldTryLinkingWithSessionUser: true }),
      }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ status: "SUPPORT_SESSION_REFUSED" });
    }
    // Nothing changed: the old password signs in, no TOTP device, no new login.
    const signIn = await postJson(`${s.url}/auth/signin`, credentials(email, PASSWORD), { rid: "emailpassword" });
    expect(((await signIn.json()) as any).status).toBe("OK");
    const logins = (await (await call(s, "GET", "/account/logins", tokens)).json()) as { logins: unknown[] };
    expect(logins.logins).toHaveLength(1);
    const devices = (await (await call(s, "GET", "/totp/device/list", tokens)).json()) as { devices: unknown[] };
    expect(devices.devices).toEqual([]);
  });

  it("lasts 15 minutes: refreshes keep the claim until then, then the token and the refresh are refused; the purge records its end", async () => {
    const { userId } = await person(s, `timed-${backend.name}@example.com`);
    let { tokens } = await start(userId);
    const startedAt = s.clock.now();
    s.clock.advance(10 * 60_000);
    const r1 = await refresh(s.url, tokens);
    expect(r1.status).toBe(200);
    tokens = readTokens(r1, "cookie", undefined, tokens);
    const p = payloadOf(tokens.access);
    expect(p.act.email).toBe(admin.email);
    expect(p.exp * 1000).toBeLessThanOrEqual(startedAt + SUPPORT_SESSION_MS + 60_000);
    expect(p.exp * 1000).toBeGreaterThan(s.clock.now());

    s.clock.advance(SUPPORT_SESSION_MS - 10 * 60_000 + 60_000);
    expect((await call(s, "GET", "/account/me", tokens)).status).toBe(401);
    expect((await refresh(s.url, tokens)).status).toBe(401);

    await purgeDeadData(s.app.ctx);
    const ended = await listEvents(s.app.store.db, { type: "support_session.ended", userId });
    expect(ended).toHaveLength(1);
    expect(JSON.parse(ended[0].data!)).toMatchObject({ endedBy: "expired", admin: admin.email });
  });

  it("a ban ends it at once (its access token refused, its refresh too), recorded as ended by the ban", async () => {
    const { userId } = await person(s, `banned-helped-${backend.name}@example.com`);
    const { tokens } = await start(userId);
    const r = await adminApi(s, "POST", `/users/${userId}/ban`, { reason: "fraud" });
    expect(r.status).toBe(200);
    expect(r.body.endedWaysIn["support-sessions"]).toHaveLength(1);
    expect((await call(s, "GET", "/account/me", tokens)).status).toBe(401);
    expect((await refresh(s.url, tokens)).status).toBe(401);
    const ended = await listEvents(s.app.store.db, { type: "support_session.ended", userId });
    expect(JSON.parse(ended[0].data!)).toMatchObject({ endedBy: "banned", source: "admin-api" });
    // And a banned person gets no new one.
    const res = await dashboard.post(`/admin/users/${userId}/support/start`, { reason: "again", code: admin.code() });
    expect(res.headers.get("location")).toBe(`/admin/users/${userId}`);
  });

  it("sign out everywhere ends it; so does the admin's End button", async () => {
    const { userId } = await person(s, `everywhere-${backend.name}@example.com`);
    const first = await start(userId);
    const r = await adminApi(s, "DELETE", `/users/${userId}/sessions`);
    expect(r.status).toBe(200);
    expect((await refresh(s.url, first.tokens)).status).toBe(401);

    const second = await start(userId);
    const handle = payloadOf(second.tokens.access).sessionHandle as string;
    expect((await dashboard.post(`/admin/users/${userId}/support/end`, { handle })).status).toBe(303);
    expect((await refresh(s.url, second.tokens)).status).toBe(401);
    const ended = (await listEvents(s.app.store.db, { type: "support_session.ended", userId })).map((e) => JSON.parse(e.data!).endedBy);
    expect(ended.sort()).toEqual(["admin", "ended_by_admin"]);
  });
});
