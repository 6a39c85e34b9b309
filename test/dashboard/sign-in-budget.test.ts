import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestAdmin, type TestAdmin } from "../helpers/dashboard.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/**
 * The admin dashboard's per-address sign-in budget (admin-signin-email, 10 failures an hour) holds
 * under concurrency on both databases: each attempt is counted before the password is checked, in
 * one statement, so 40 wrong passwords at once check at most 10. A success is given back.
 */
describe.each(backends)("dashboard sign-in budget under concurrency ($name)", (backend) => {
  let t: TestApp;
  let admin: TestAdmin;
  beforeEach(async () => {
    t = await createTestApp({ backend, config: { limitAdminSigninIp: "1000/15m" } });
    admin = await createTestAdmin(t.app, { email: "root@example.com" });
  });
  afterEach(async () => { await t.close(); });

  const signIn = (form: Record<string, string>) => fetch(`${t.url}/admin/sign-in`, {
    method: "POST",
    headers: { origin: t.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  });

  it("40 wrong passwords at once: at most 10 are checked (401), the rest 429; then the right password waits too", async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn({ email: admin.email, password: `wrong password ${i}`, code: admin.code() })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 401).every((s) => s === 429)).toBe(true);
    expect((await signIn({ email: admin.email, password: admin.password, code: admin.code() })).status).toBe(429);
  });

  it("successful sign-ins are not counted: only failures fill the budget", async () => {
    for (let i = 0; i < 12; i++) {
      expect((await signIn({ email: admin.email, password: admin.password, code: admin.code() })).status).toBe(303);
      t.clock.advance(31_000); // a fresh code step each time
    }
    for (let i = 0; i < 9; i++) expect((await signIn({ email: admin.email, password: `wrong ${i}`, code: admin.code() })).status).toBe(401);
    expect((await signIn({ email: admin.email, password: admin.password, code: admin.code() })).status).toBe(303);
  });
});
