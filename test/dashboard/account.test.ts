import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listEvents } from "../../src/store/events.js";
import { backends } from "../helpers/backends.js";
import { createTestAdmin, dashboardSession, type TestAdmin } from "../helpers/dashboard.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/**
 * The admin's own account page, and through its one action the mount's checks of every dashboard
 * route's POST (session, same origin, CSRF token) and the flash message after a redirect.
 */
describe.each(backends)("dashboard: your admin account ($name)", (backend) => {
  let t: TestApp;
  let admin: TestAdmin;
  beforeEach(async () => {
    t = await createTestApp({ backend });
    admin = await createTestAdmin(t.app, { email: "root@example.com" });
  });
  afterEach(async () => { await t.close(); });

  const ACTION = "/admin/account/sign-out-others";
  const sessions = async () => (await t.app.store.db.selectFrom("admin_sessions").selectAll().execute()).length;

  it("lists where the admin is signed in (no token), and signs out the other sessions with a message shown once", async () => {
    const other = await dashboardSession(t.url, admin);
    const c = await dashboardSession(t.url, admin);
    const page = await (await c.get("/admin/account")).text();
    expect(page).toContain("<h1>Your admin account</h1>");
    expect(page).toContain("this browser");
    expect(page).toContain("Sign out my 1 other session");
    expect(page.match(/<tr><td><time/g)).toHaveLength(2);
    expect(page).not.toContain(c.cookie.split("=")[1].split(";")[0]);

    const res = await c.post(ACTION, {});
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/account");
    expect(await sessions()).toBe(1);
    const after = await (await c.get("/admin/account")).text();
    expect(after).toMatch(/<p class="flash ok" role="status">Signed out of 1 other session\.<\/p>/);
    expect(after).toContain("No other session.");
    expect(await (await c.get("/admin/account")).text()).not.toContain("Signed out of"); // shown once
    const gone = await fetch(`${t.url}/admin/account`, { headers: { cookie: other.cookie }, redirect: "manual" });
    expect(gone.status).toBe(303);
    const events = await listEvents(t.app.store.db, { type: "admin.other_sessions_ended" });
    expect(events.map((e) => [e.admin_id, JSON.parse(e.data!)])).toEqual([[admin.id, { sessionsEnded: 1, source: `admin:${admin.id}` }]]);
  });

  it("a dashboard route's POST without a session, without the token, with a wrong one or from another site is refused (403) and changes nothing", async () => {
    await dashboardSession(t.url, admin);
    const c = await dashboardSession(t.url, admin);
    const post = (body: string, headers: Record<string, string>) => fetch(`${t.url}${ACTION}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body, redirect: "manual" });
    const refused = [
      await post(`csrf=${c.csrf}`, { origin: t.url }), // no session cookie
      await post("", { cookie: c.cookie, origin: t.url }),
      await post(`csrf=${c.csrf.slice(1)}x`, { cookie: c.cookie, origin: t.url }),
      await post(`csrf=${c.csrf}`, { cookie: c.cookie, origin: "https://evil.example" }),
      await post(`csrf=${c.csrf}`, { cookie: c.cookie, "sec-fetch-site": "cross-site", origin: "null" }),
    ];
    for (const r of refused) {
      expect(r.status).toBe(403);
      expect(r.headers.get("content-type")).toMatch(/text\/html/);
    }
    expect(await refused[1].text()).toContain("Nothing was changed");
    expect(await sessions()).toBe(2);
    expect(await listEvents(t.app.store.db, { type: "admin.other_sessions_ended" })).toHaveLength(0);
  });

  it("a flash cookie not signed for this session is not shown", async () => {
    const c = await dashboardSession(t.url, admin);
    const forged = Buffer.from(JSON.stringify({ k: "error", t: "Call +1 555 0100 now" })).toString("base64url");
    const res = await fetch(`${t.url}/admin/account`, { headers: { cookie: `${c.cookie}; authsvc_admin_flash=${forged}.${"A".repeat(43)}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain("555");
  });

  it("an unknown dashboard page is a 404 page once signed in, never a 500", async () => {
    const c = await dashboardSession(t.url, admin);
    const res = await c.get("/admin/no-such-page");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(await res.text()).toContain("Back to the overview");
    // Signed in already: the sign-in page sends the admin straight on.
    const again = await fetch(`${t.url}/admin/sign-in?next=%2Fadmin%2Faccount`, { headers: { cookie: c.cookie }, redirect: "manual" });
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe("/admin/account");
  });
});
