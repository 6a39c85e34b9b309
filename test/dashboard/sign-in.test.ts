import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetAdminSecondFactor } from "../../src/dashboard/accounts/admins.js";
import { generateAdminCode } from "../../src/dashboard/accounts/second-factor.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { listEvents } from "../../src/store/events.js";
import { backends } from "../helpers/backends.js";
import { createTestAdmin, dashboardSession, type TestAdmin } from "../helpers/dashboard.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/** Dashboard sign-in over HTTP (the listener `serve` uses), on SQLite and PostgreSQL. */
describe.each(backends)("dashboard sign-in ($name)", (backend) => {
  let t: TestApp;
  let admin: TestAdmin;
  beforeEach(async () => {
    t = await createTestApp({ backend });
    admin = await createTestAdmin(t.app, { email: "root@example.com" });
  });
  afterEach(async () => { await t.close(); });

  const signIn = (form: Record<string, string>, headers: Record<string, string> = {}) => fetch(`${t.url}/admin/sign-in`, {
    method: "POST",
    headers: { origin: t.url, "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  });
  const sessionCookie = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith("authsvc_admin="))?.split(";")[0];
  const sessionRows = () => t.app.store.db.selectFrom("admin_sessions").selectAll().execute();

  it("signs in with password and code: a session cookie (HttpOnly, SameSite=Strict, Path=/admin), the page asked for, only the token's hash stored", async () => {
    const res = await signIn({ email: "Root@Example.com", password: admin.password, code: admin.code(), next: "/admin?tab=1" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin?tab=1");
    const raw = res.headers.getSetCookie().find((c) => c.startsWith("authsvc_admin="))!;
    expect(raw).toMatch(/HttpOnly/i);
    expect(raw).toMatch(/SameSite=Strict/i);
    expect(raw).toMatch(/Path=\/admin/);
    expect(raw).not.toMatch(/Secure/i); // http public URL (see the https test below)
    const page = await fetch(`${t.url}/admin`, { headers: { cookie: sessionCookie(res)! } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("access-control-allow-origin")).toBeNull();
    expect(await page.text()).toContain("root@example.com");
    const token = sessionCookie(res)!.split("=")[1];
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
    const rows = await sessionRows();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("wrong password, wrong code, a reused code and an unknown address get one answer (401, same page); nothing is signed in", async () => {
    const first = admin.code();
    expect((await signIn({ email: admin.email, password: admin.password, code: first })).status).toBe(303);
    const answers = [
      await signIn({ email: admin.email, password: "not the password", code: admin.code() }),
      await signIn({ email: admin.email, password: admin.password, code: "123456" === admin.code() ? "654321" : "123456" }),
      await signIn({ email: admin.email, password: admin.password, code: first }),
      await signIn({ email: "nobody@example.com", password: admin.password, code: admin.code() }),
    ];
    const bodies = await Promise.all(answers.map(async (r) => ({ status: r.status, cookie: sessionCookie(r), text: (await r.text()).replace(/value="[^"]*@example\.com"/, "") })));
    expect(bodies.map((b) => b.status)).toEqual([401, 401, 401, 401]);
    expect(bodies.every((b) => b.cookie === undefined)).toBe(true);
    expect(new Set(bodies.map((b) => b.text)).size).toBe(1);
    expect(bodies[0].text).toContain("Wrong email, password or code");
    expect(await sessionRows()).toHaveLength(1);
    const failed = await listEvents(t.app.store.db, { type: "admin.sign_in_failed" });
    expect(failed.map((e) => [e.admin_id, JSON.parse(e.data!).reason])).toEqual([[admin.id, "password"], [admin.id, "code"], [admin.id, "code_reused"], [null, "unknown_admin"]]);
  });

  it("an admin without a second factor is refused with a clear message, even with the right password", async () => {
    await resetAdminSecondFactor(t.app.ctx, { email: admin.email, remove: true, source: "cli" });
    const res = await signIn({ email: admin.email, password: admin.password, code: admin.code() });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("has no second factor");
    expect(sessionCookie(res)).toBeUndefined();
  });

  it("incomplete or malformed forms are 4xx pages, never 500, and sign nobody in", async () => {
    expect((await signIn({ email: admin.email, password: admin.password })).status).toBe(400);
    const wrongType = await fetch(`${t.url}/admin/sign-in`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: admin.email }) });
    expect(wrongType.status).toBe(415);
    expect(wrongType.headers.get("content-type")).toMatch(/text\/html/);
    const huge = await signIn({ email: admin.email, password: "x".repeat(40_000), code: "123456" });
    expect(huge.status).toBe(413);
    expect(await sessionRows()).toHaveLength(0);
  });

  it("an app user's session gives nothing: pages redirect to the sign-in, POSTs are refused", async () => {
    await signUpWithPassword(t.app.ctx, { email: "user@example.com", password: "correct horse battery staple" });
    const user = await postJson(`${t.url}/auth/signin`, credentials("user@example.com"), { "st-auth-mode": "cookie" });
    const cookies = user.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    expect(cookies).toContain("sAccessToken=");
    const page = await fetch(`${t.url}/admin`, { headers: { cookie: cookies }, redirect: "manual" });
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/admin/sign-in?next=%2Fadmin");
    const post = await fetch(`${t.url}/admin/sign-out`, { method: "POST", headers: { cookie: cookies, "content-type": "application/x-www-form-urlencoded" }, body: "csrf=x" });
    expect(post.status).toBe(403);
  });

  it("without a session: GETs go to the sign-in page with a safe `next`; the sign-in never sends anyone off-site", async () => {
    const deep = await fetch(`${t.url}/admin/users?q=ada`, { redirect: "manual" });
    expect(deep.headers.get("location")).toBe(`/admin/sign-in?next=${encodeURIComponent("/admin/users?q=ada")}`);
    for (const next of ["https://evil.example/", "//evil.example/admin", "/\\evil.example", "/auth/sign-out", "/admin/v1/users"]) {
      const res = await signIn({ email: admin.email, password: admin.password, code: admin.code(), next });
      expect(res.headers.get("location"), next).toBe("/admin");
    }
    const form = await (await fetch(`${t.url}/admin/sign-in?next=https://evil.example/`)).text();
    expect(form).toContain('name="next" value="/admin"');
  });

  it("CSRF: sign-out without the token, with a wrong one, or from another origin is refused (403) and the session lives on", async () => {
    const c = await dashboardSession(t.url, admin);
    const post = (body: string, headers: Record<string, string>) => fetch(`${t.url}/admin/sign-out`, { method: "POST", headers: { cookie: c.cookie, "content-type": "application/x-www-form-urlencoded", ...headers }, body, redirect: "manual" });
    const refused = [
      await post("", { origin: t.url }),
      await post(`csrf=${"A".repeat(43)}`, { origin: t.url }),
      await post(`csrf=${c.csrf}`, { origin: "https://evil.example" }),
      await post(`csrf=${c.csrf}`, { origin: "null" }),
      await post(`csrf=${c.csrf}`, { "sec-fetch-site": "cross-site" }),
      await post(`csrf=${c.csrf}`, { "sec-fetch-site": "same-site", origin: t.url }),
    ];
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403]);
    expect(await sessionRows()).toHaveLength(1);
    expect((await c.get("/admin")).status).toBe(200);
    expect(await listEvents(t.app.store.db, { type: "admin.signed_out" })).toHaveLength(0);
    // A browser's own form: Sec-Fetch-Site same-origin (Origin is "null" under Referrer-Policy no-referrer).
    const ok = await post(`csrf=${c.csrf}`, { "sec-fetch-site": "same-origin", origin: "null" });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/admin/sign-in?signed-out");
    expect(await sessionRows()).toHaveLength(0);
  });

  it("sign-in from another origin is refused (login CSRF)", async () => {
    const res = await signIn({ email: admin.email, password: admin.password, code: admin.code() }, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(await sessionRows()).toHaveLength(0);
  });

  it("sessions end after 30 idle minutes and 12 hours after sign-in, however busy (injected clock)", async () => {
    const c = await dashboardSession(t.url, admin);
    t.clock.advance(29 * 60_000);
    expect((await c.get("/admin")).url).toMatch(/\/admin$/);
    t.clock.advance(29 * 60_000); // 58 min after sign-in, 29 after the last use
    const stillIn = await fetch(`${t.url}/admin`, { headers: { cookie: c.cookie }, redirect: "manual" });
    expect(stillIn.status).toBe(200);
    t.clock.advance(31 * 60_000);
    const idle = await fetch(`${t.url}/admin`, { headers: { cookie: c.cookie }, redirect: "manual" });
    expect(idle.status).toBe(303);
    expect(idle.headers.get("location")).toBe("/admin/sign-in?ended&next=%2Fadmin");
    expect(await sessionRows()).toHaveLength(0);

    const busy = await dashboardSession(t.url, admin);
    const get = () => fetch(`${t.url}/admin`, { headers: { cookie: busy.cookie }, redirect: "manual" });
    for (let i = 0; i < 24; i++) { // used every 29 minutes: 11 h 36 min
      t.clock.advance(29 * 60_000);
      expect((await get()).status).toBe(200);
    }
    t.clock.advance(25 * 60_000); // 12 h 1 min after sign-in, 25 min after the last use
    expect((await get()).status).toBe(303);
  });

  it("sign-in budgets of their own: failures per address lock it (the right password and code too), then every attempt per IP", async () => {
    for (let i = 0; i < 10; i++) expect((await signIn({ email: admin.email, password: "wrong password " + i, code: admin.code() })).status).toBe(401);
    const locked = await signIn({ email: admin.email, password: admin.password, code: admin.code() });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(locked.headers.get("content-type")).toMatch(/text\/html/);
    // The app users' sign-in budget is another one: an app user with that address is not locked.
    await signUpWithPassword(t.app.ctx, { email: admin.email, password: "correct horse battery staple" });
    expect((await postJson(`${t.url}/auth/signin`, credentials(admin.email))).status).toBe(200);
    // 30 attempts per IP in 15 minutes (11 so far), whatever the address.
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await signIn({ email: `other${i}@example.com`, password: "whatever it is", code: "123456" })).status);
    expect(statuses.slice(0, 19).every((s) => s === 401)).toBe(true);
    expect(statuses[19]).toBe(429);
    const lockEvents = await listEvents(t.app.store.db, { type: "rate_limit.locked" });
    expect(lockEvents.map((e) => JSON.parse(e.data!).bucket)).toEqual(["admin-signin-email", "admin-signin-ip"]);
  });

  it("every admin event names the admin (events.admin_id), from the CLI's core functions and the dashboard", async () => {
    const c = await dashboardSession(t.url, admin);
    await c.post("/admin/sign-out", {});
    await resetAdminSecondFactor(t.app.ctx, { email: admin.email, source: "cli" });
    const events = await listEvents(t.app.store.db, { adminId: admin.id });
    expect(events.map((e) => e.type)).toEqual(["admin.created", "admin.signed_in", "admin.signed_out", "admin.second_factor_reset"]);
    expect(JSON.parse(events[1].data!).source).toBe(`admin:${admin.id}`);
  });
});

describe("dashboard cookies behind https", () => {
  it("are Secure and __Host- prefixed (Path=/, no Domain) when the public URL is https", async () => {
    const t = await createTestApp({ config: { publicUrl: "https://auth.example.com" } });
    try {
      const admin = await createTestAdmin(t.app);
      const res = await fetch(`${t.url}/admin/sign-in`, {
        method: "POST",
        headers: { origin: "https://auth.example.com", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: admin.email, password: admin.password, code: generateAdminCode(admin.totpSecret, Math.floor(t.clock.now() / 30_000)) }).toString(),
        redirect: "manual",
      });
      expect(res.status).toBe(303);
      const raw = res.headers.getSetCookie().find((c) => c.startsWith("__Host-authsvc_admin="))!;
      expect(raw).toMatch(/; Secure/i);
      expect(raw).toMatch(/Path=\/(;|$)/);
      expect(raw).not.toMatch(/Domain=/i);
    } finally {
      await t.close();
    }
  });
});
