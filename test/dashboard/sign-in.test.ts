import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listEvents } from "../../src/store/events.js";
import { backends } from "../helpers/backends.js";
import { createTestAdmin, dashboardSession, type TestAdmin } from "../helpers/dashboard.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/** Dashboard sign-in over HTTP (the real listener), on SQLite and PostgreSQL. */
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

  it("signs in with password and code: a session cookie (HttpOnly, SameSite=Strict, Path=/admin) and the overview", async () => {
    const res = await signIn({ email: "Root@Example.com", password: admin.password, code: admin.code(), next: "/admin" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("authsvc_admin="))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/admin/);
    const page = await fetch(`${t.url}/admin`, { headers: { cookie: cookie.split(";")[0] } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
    expect(await page.text()).toContain("root@example.com");
    // Only the token's hash is stored.
    const token = cookie.split(";")[0].split("=")[1];
    const rows = await t.app.store.db.selectFrom("admin_sessions").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("the helper's client signs in and carries the CSRF token", async () => {
    const c = await dashboardSession(t.url, admin);
    expect(c.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const out = await c.post("/admin/sign-out", {});
    expect(out.status).toBe(303);
    const after = await fetch(`${t.url}/admin`, { headers: { cookie: c.cookie }, redirect: "manual" });
    expect(after.status).toBe(303);
  });

  it("events carry the admin's id", async () => {
    await dashboardSession(t.url, admin);
    const events = await listEvents(t.app.store.db, { adminId: admin.id });
    expect(events.map((e) => e.type)).toEqual(["admin.created", "admin.signed_in"]);
  });
});
