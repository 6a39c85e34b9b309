import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { listEvents } from "../../src/store/events.js";
import { addMember, createOrganization } from "../../src/organizations/organizations.js";
import { backends } from "../helpers/backends.js";
import { createTestAdmin, dashboardSession, type DashboardClient, type TestAdmin } from "../helpers/dashboard.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/**
 * The users room over HTTP (the listener `serve` uses, the dashboard mount, a signed-in admin), on
 * SQLite and PostgreSQL: each page and action, bad input answered with a message and nothing
 * changed, and the mount's refusal of these POSTs without the admin session or the CSRF token.
 */

const PW = "correct horse battery staple";

describe.each(backends)("dashboard users room over HTTP ($name)", (backend) => {
  let t: TestApp;
  let admin: TestAdmin;
  let c: DashboardClient;
  beforeAll(async () => {
    t = await createTestApp({ backend });
    admin = await createTestAdmin(t.app, { email: "root@example.com" });
    c = await dashboardSession(t.url, admin);
  });
  afterAll(async () => { await t?.close(); });

  const newUser = async (email: string) => {
    const up = await signUpWithPassword(t.app.ctx, { email, password: PW });
    if (up.status !== "OK") throw new Error(up.status);
    return up.user.id;
  };
  const exists = async (id: string) => (await t.app.store.db.selectFrom("users").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
  /** POSTs, expects post/redirect/get back to `to`, and returns the page there with its message. */
  async function act(path: string, form: Record<string, string>, to: string): Promise<string> {
    const res = await c.post(path, form);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(to);
    const page = await c.get(to);
    expect(page.status).toBe(200);
    return page.text();
  }

  it("refuses the room's POSTs without the admin session or without the CSRF token, changing nothing", async () => {
    const id = await newUser("guarded@example.com");
    const form = new URLSearchParams({ confirm: "guarded@example.com" }).toString();
    const post = (headers: Record<string, string>, body = form) => fetch(`${t.url}/admin/users/${id}/delete`, { method: "POST", redirect: "manual", headers: { origin: t.url, "content-type": "application/x-www-form-urlencoded", ...headers }, body });
    const anonymous = await post({});
    expect(anonymous.status).toBeGreaterThanOrEqual(400);
    expect(anonymous.status).toBeLessThan(500);
    const noToken = await post({ cookie: c.cookie });
    expect(noToken.status).toBe(403);
    const wrongToken = await post({ cookie: c.cookie }, `${form}&csrf=${"x".repeat(43)}`);
    expect(wrongToken.status).toBe(403);
    expect(await exists(id)).toBe(true);
    // The pages need the session too: to the sign-in, with the way back.
    const page = await fetch(`${t.url}/admin/users?q=guarded`, { redirect: "manual" });
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toMatch(/^\/admin\/sign-in\?next=%2Fadmin%2Fusers/);
    // With both, the same POST deletes.
    await act(`/admin/users/${id}/delete`, { confirm: "guarded@example.com" }, "/admin/users");
    expect(await exists(id)).toBe(false);
  });

  it("searches by prefix and by id, pages with next/previous links, and shows a person; an unknown id or a bad cursor is a 4xx page", async () => {
    const first = await newUser("zz-page-00@example.com");
    for (let i = 1; i < 55; i++) await newUser(`zz-page-${String(i).padStart(2, "0")}@example.com`);
    const res = await c.get("/admin/users?q=ZZ-PAGE");
    expect(res.status).toBe(200);
    const one = await res.text();
    expect(one.match(/<th scope="row"><a /g)).toHaveLength(50);
    expect(one).not.toContain("Previous page");
    const next = /<a href="([^"]+)" rel="next">Next page<\/a>/.exec(one)![1].replace(/&amp;/g, "&");
    const two = await (await c.get(next)).text();
    expect(two.match(/<th scope="row"><a /g)).toHaveLength(5);
    expect(two).toContain("zz-page-54@example.com");
    const prev = /<a href="([^"]+)" rel="prev">Previous page<\/a>/.exec(two)![1].replace(/&amp;/g, "&");
    expect((await (await c.get(prev)).text()).match(/zz-page-\d\d@example\.com<\/a>/g)).toEqual(one.match(/zz-page-\d\d@example\.com<\/a>/g));
    const byId = await (await c.get(`/admin/users?q=${first}`)).text();
    expect(byId.match(/<th scope="row"><a /g)).toHaveLength(1);

    const person = await c.get(`/admin/users/${first}`);
    expect(person.status).toBe(200);
    expect(person.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
    const html = await person.text();
    expect(html).toContain("<h1>zz-page-00@example.com</h1>");
    expect(html.match(/<h1[ >]/g)).toHaveLength(1);
    expect((await c.get("/admin/users/no-such-user")).status).toBe(404);
    expect((await c.get("/admin/users?q=zz&after=%%%")).status).toBe(400);
  });

  it("does each action through the mount: verify, sessions, reset link, password (weak refused with the policy's words), link/unlink, delete with confirmation", async () => {
    const id = await newUser("acted@example.com");
    const other = await newUser("acted-too@example.com");
    const base = `/admin/users/${id}`;
    expect(await act(`${base}/verified`, { recipeUserId: id, verified: "1" }, base)).toContain("Marked verified.");
    await postJson(`${t.url}/auth/signin`, credentials("acted@example.com"), { "st-auth-mode": "header" });
    expect(await act(`${base}/sessions/revoke-all`, {}, base)).toContain("Signed out everywhere: ended 1 session.");
    expect(await act(`${base}/mfa/reset`, {}, base)).toContain("They had no second factor to reset.");
    expect(await act(`${base}/locks/clear`, { email: "acted@example.com" }, base)).toContain("Nothing was limiting acted@example.com.");
    const mailed = await act(`${base}/reset-link`, {}, base);
    expect(mailed).toContain("A password-reset link was mailed to acted@example.com.");
    expect(mailed).not.toMatch(/token=/);

    const hash = async () => (await t.app.store.db.selectFrom("email_password_credentials").select("password_hash").where("user_id", "=", id).executeTakeFirstOrThrow()).password_hash;
    const before = await hash();
    const weak = await act(`${base}/password`, { password: "acted@example.com" }, base);
    expect(weak).toMatch(/<p class="flash error" role="alert">Password not changed: /);
    expect(await hash()).toBe(before);
    expect(await act(`${base}/password`, { password: "a fresh and long passphrase" }, base)).toContain("Password set; 0 sessions ended.");
    expect(await hash()).not.toBe(before);

    expect(await act(`${base}/link`, { other: "no-one@example.com" }, base)).toContain("No user is no-one@example.com.");
    expect(await act(`${base}/link`, { other }, base)).toContain("Linked acted-too@example.com");
    expect(await act(`${base}/unlink`, { recipeUserId: other }, base)).toContain("it is a user of its own now");

    expect(await act(`${base}/delete`, { confirm: "acted-too@example.com" }, base)).toContain("Not deleted: type acted@example.com exactly to confirm.");
    expect(await exists(id)).toBe(true);
    // The only owner of an organization with another member: refused on the person's page, naming it.
    const org = await createOrganization(t.app.ctx, { name: "Acted Co" }, id, { operator: "cli" });
    await addMember(t.app.ctx, org.id, other, "member", "cli");
    expect(await act(`${base}/delete`, { confirm: "acted@example.com" }, base)).toContain("Not deleted. The account cannot be deleted yet: it is the only owner of the organization Acted Co (acted-co)");
    expect(await exists(id)).toBe(true);
    await addMember(t.app.ctx, org.id, (await newUser("acted-owner@example.com")), "owner", "cli");
    expect(await act(`${base}/delete`, { confirm: "acted@example.com" }, "/admin/users")).toContain("Deleted acted@example.com.");
    expect(await exists(id)).toBe(false);
    expect(await act(`${base}/verified`, { recipeUserId: id, verified: "1" }, "/admin/users")).toContain("No such user");

    const sources = (await listEvents(t.app.store.db, { userId: id })).map((e) => JSON.parse(e.data ?? "{}").source).filter((s) => s?.startsWith("admin:"));
    expect(new Set(sources)).toEqual(new Set([`admin:${admin.id}`]));
    expect(sources.length).toBeGreaterThanOrEqual(4);
  });
});
