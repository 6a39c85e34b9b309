import type { H3Event } from "h3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DashboardRequest, DashboardResult } from "../../src/dashboard/kit.js";
import { userRoutes } from "../../src/dashboard/users/routes.js";
import { tables } from "../../src/rooms.js";
import type { HttpDeps } from "../../src/http/deps.js";
import { createPasswordlessUser } from "../../src/methods/passwordless/consume.js";
import { generateCode } from "../../src/methods/totp/secrets.js";
import { listEvents } from "../../src/store/events.js";
import { putRole, setUserRole } from "../../src/roles/roles.js";
import { backends } from "../helpers/backends.js";
import { credentials, jwtPayload, postJson, postWithSession, signUp } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/**
 * The users room's handlers as the mount calls them (the route table, a signed-in admin's request,
 * a real app on both backends). The HTTP tests (users-http.test.ts) go through the mount itself.
 */

const PW = "correct horse battery staple";
const ADMIN = { id: "adm-1", email: "root@example.com" };

describe.each(backends)("dashboard users room handlers ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend, config: { rateLimits: true, limitSigninFailures: "3/1h", limitSigninFreeFailures: 1 } }); });
  afterAll(async () => { await t?.close(); });

  async function call(method: "GET" | "POST", path: string, o: { query?: Record<string, string>; form?: Record<string, string> } = {}): Promise<DashboardResult> {
    for (const route of userRoutes(tables.personPage)) {
      if (route.method !== method) continue;
      const names: string[] = [];
      const re = new RegExp(`^${route.path.replace(/:(\w+)/g, (_, n) => { names.push(n); return "([^/]+)"; })}$`);
      const m = re.exec(path);
      if (!m) continue;
      const params = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
      const r: DashboardRequest = {
        event: {} as H3Event, deps: { tables } as HttpDeps, ctx: t.app.ctx, admin: ADMIN, csrf: "csrf-token", source: `admin:${ADMIN.id}`,
        params, query: new URLSearchParams(o.query), form: new URLSearchParams(o.form),
      };
      return route.handler(r);
    }
    throw new Error(`no route for ${method} ${path}`);
  }
  const html = (res: DashboardResult) => { if (!("html" in res)) throw new Error(`expected a page, got ${JSON.stringify(res)}`); return res.html; };
  const userId = async (email: string) => jwtPayload((await signUp(t.url, email, "header")).tokens.access).sub as string;
  const signIn = (email: string, password = PW) => postJson(`${t.url}/auth/signin`, credentials(email, password), { "st-auth-mode": "header" }).then((r) => r.json() as Promise<{ status: string }>);
  const sources = async (type: string, id: string) => (await listEvents(t.app.store.db, { type, userId: id })).map((e) => JSON.parse(e.data ?? "{}").source);

  it("lists people by email prefix and by id, escapes what it shows, and answers a bad page link with a 400 page", async () => {
    const id = await userId("list-one@example.com");
    await userId("list-other@example.com");
    const page = html(await call("GET", "/admin/users", { query: { q: "LIST-" } }));
    expect(page).toContain("list-one@example.com");
    expect(page).toContain("list-other@example.com");
    expect(page).not.toContain("actions@example.com");
    const odd = html(await call("GET", "/admin/users", { query: { q: "<b>\"x" } }));
    expect(odd).toContain('value="&lt;b&gt;&quot;x"');
    expect(odd).not.toContain("<b>");
    expect(page).toContain(`href="/admin/users/${id}"`);
    expect(page).toMatch(/<label for="user-q">Email prefix or user id<\/label>/);
    const byId = html(await call("GET", "/admin/users", { query: { q: id } }));
    expect(byId).toContain("list-one@example.com");
    expect(byId).not.toContain("list-other@example.com");
    // A person with only a sign-in code by mail is listed with that method, not as having none.
    const p = await createPasswordlessUser(t.app.ctx, { email: "list-codes@example.com", source: "test" });
    expect(p.status).toBe("OK");
    const codes = html(await call("GET", "/admin/users", { query: { q: "list-codes" } }));
    expect(codes).toMatch(/list-codes@example\.com<\/a><\/th>\n<td class="mono">[^<]+<\/td>\n<td>sign-in code<\/td>/);
    const bad = await call("GET", "/admin/users", { query: { q: "a", after: "garbage" } });
    expect(bad).toMatchObject({ status: 400 });
    expect(html(bad)).toContain("not valid");
  });

  it("shows a person's methods, sessions, second factor, locks, events and mails, and no secret", async () => {
    const email = "person@example.com";
    const s = (await signUp(t.url, email, "header")).tokens;
    const id = jwtPayload(s.access).sub as string;
    const dev = await postWithSession(t.url, "/totp/device", s, {});
    await postWithSession(t.url, "/totp/device/verify", s, { deviceName: dev.json.deviceName, totp: generateCode(dev.json.secret, t.clock.now()) });
    for (let i = 0; i < 3; i++) await signIn(email, "wrong password entirely");
    await postJson(`${t.url}/auth/user/password/reset/token`, { formFields: [{ id: "email", value: email }] });
    const page = html(await call("GET", `/admin/users/${id}`));
    expect(page).toContain("Email and password");
    expect(page).toContain(id);
    expect(page).toMatch(/Revoke<span class="sr-only"> session /);
    expect(page).toContain("Reset second factor");
    expect(page).toContain("signin-failures");
    // Recent events, newest first (the audit log's panel above names some of the same actions).
    const events = page.slice(page.indexOf('id="events-h"'));
    expect(events.indexOf("password_reset.token_created")).toBeLessThan(events.indexOf("user.signed_up"));
    expect(events.indexOf("user.signed_up")).toBeGreaterThan(0);
    expect(page).toContain("password_reset");
    expect(page).toContain('name="csrf" value="csrf-token"');
    // No hash, token, TOTP secret or mail body.
    const hash = await t.app.store.db.selectFrom("email_password_credentials").select("password_hash").where("user_id", "=", id).executeTakeFirstOrThrow();
    expect(page).not.toContain(hash.password_hash);
    expect(page).not.toContain(s.refresh);
    expect(page).not.toContain(dev.json.secret);
    expect(page).not.toMatch(/token=/);
    const missing = await call("GET", "/admin/users/no-such-id");
    expect(missing).toMatchObject({ status: 404 });
    expect(html(missing)).toContain("No user has the id");
  });

  it("lists a person's roles among who they are, and 'none' without one", async () => {
    const id = await userId("roles-row@example.com");
    const row = (page: string) => /<dt>Roles<\/dt><dd>(.*?)<\/dd>/.exec(page)?.[1];
    expect(row(html(await call("GET", `/admin/users/${id}`)))).toBe('<span class="muted">none</span>');
    await putRole(t.app.ctx, "editor", []);
    await putRole(t.app.ctx, "billing:admin", []);
    await setUserRole(t.app.ctx, id, "editor");
    await setUserRole(t.app.ctx, id, "billing:admin");
    const page = html(await call("GET", `/admin/users/${id}`));
    expect(row(page)).toBe("billing:admin, editor");
    // Among the facts at the top (who they are), before the rooms' panels.
    expect(page.indexOf("<dt>Roles</dt>")).toBeGreaterThan(page.indexOf("roles-row@example.com"));
  });

  it("marks verified and unverified, revokes one session (only this person's) and all, resets the second factor and clears locks, each an event naming the admin", async () => {
    const email = "actions@example.com";
    const s = (await signUp(t.url, email, "header")).tokens;
    const id = jwtPayload(s.access).sub as string;
    const other = (await signUp(t.url, "bystander@example.com", "header")).tokens;
    const sessions = async (uid: string) => t.app.store.db.selectFrom("sessions").select("handle").where("user_id", "=", uid).where("revoked_at", "is", null).execute();
    const back = { redirect: `/admin/users/${id}` };

    expect(await call("POST", `/admin/users/${id}/verified`, { form: { recipeUserId: id, verified: "1" } })).toEqual({ ...back, flash: { kind: "ok", text: "Marked verified." } });
    expect(html(await call("GET", `/admin/users/${id}`))).toContain("Mark unverified");
    expect(await call("POST", `/admin/users/${id}/verified`, { form: { recipeUserId: id, verified: "0" } })).toMatchObject({ flash: { kind: "ok", text: "Marked unverified." } });
    expect(await sources("user.email_unverified", id)).toEqual([`admin:${ADMIN.id}`]);
    expect(await call("POST", `/admin/users/${id}/verified`, { form: { recipeUserId: "someone-else", verified: "1" } })).toMatchObject({ flash: { kind: "error" } });

    const otherHandle = jwtPayload(other.access).sessionHandle as string;
    expect(await call("POST", `/admin/users/${id}/sessions/revoke`, { form: { handle: otherHandle } })).toMatchObject({ flash: { kind: "error" } });
    expect(await sessions(jwtPayload(other.access).sub as string)).toHaveLength(1);
    await signIn(email);
    const [first] = await sessions(id);
    expect(await call("POST", `/admin/users/${id}/sessions/revoke`, { form: { handle: first.handle } })).toEqual({ ...back, flash: { kind: "ok", text: "Session revoked." } });
    expect(await sessions(id)).toHaveLength(1);
    expect(await call("POST", `/admin/users/${id}/sessions/revoke-all`)).toEqual({ ...back, flash: { kind: "ok", text: "Signed out everywhere: ended 1 session." } });
    expect(await sessions(id)).toHaveLength(0);
    expect(await sources("sessions.revoked", id)).toContain(`admin:${ADMIN.id}`);

    const s2 = (await postJson(`${t.url}/auth/signin`, credentials(email), { "st-auth-mode": "header" }));
    const tokens = { mode: "header" as const, access: s2.headers.get("st-access-token")!, refresh: s2.headers.get("st-refresh-token")! };
    const dev = await postWithSession(t.url, "/totp/device", tokens, {});
    await postWithSession(t.url, "/totp/device/verify", tokens, { deviceName: dev.json.deviceName, totp: generateCode(dev.json.secret, t.clock.now()) });
    expect(await call("POST", `/admin/users/${id}/mfa/reset`)).toMatchObject({ flash: { kind: "ok" } });
    expect(await t.app.store.db.selectFrom("totp_devices").selectAll().where("user_id", "=", id).execute()).toEqual([]);
    expect(await sources("mfa.reset", id)).toEqual([`admin:${ADMIN.id}`]);

    for (let i = 0; i < 3; i++) await signIn(email, "wrong password entirely");
    expect((await signIn(email)).status).not.toBe("OK");
    expect(await call("POST", `/admin/users/${id}/locks/clear`, { form: { email: "bystander@example.com" } })).toMatchObject({ flash: { kind: "error" } });
    expect(await call("POST", `/admin/users/${id}/locks/clear`, { form: { email: "ACTIONS@example.com" } })).toMatchObject({ flash: { kind: "ok", text: expect.stringContaining("signin-failures") } });
    expect((await signIn(email)).status).toBe("OK");
    const cleared = (await listEvents(t.app.store.db, { type: "rate_limit.cleared" })).map((e) => JSON.parse(e.data!));
    expect(cleared).toContainEqual(expect.objectContaining({ key: email, source: `admin:${ADMIN.id}` }));
  });

  it("mails a reset link without showing it, sets a password the policy allows (and refuses a weak one, changing nothing)", async () => {
    const email = "password@example.com";
    const id = await userId(email);
    expect(await call("POST", `/admin/users/${id}/reset-link`)).toEqual({ redirect: `/admin/users/${id}`, flash: { kind: "ok", text: `A password-reset link was mailed to ${email}.` } });
    const mails = await t.app.store.db.selectFrom("mail_outbox").select("kind").where("to_address", "=", email).execute();
    expect(mails.map((m) => m.kind)).toContain("password_reset");

    const before = await t.app.store.db.selectFrom("email_password_credentials").select("password_hash").where("user_id", "=", id).executeTakeFirstOrThrow();
    const weak = await call("POST", `/admin/users/${id}/password`, { form: { password: "short" } });
    expect(weak).toMatchObject({ flash: { kind: "error", text: expect.stringMatching(/^Password not changed: /) } });
    expect(JSON.stringify(weak)).not.toContain("\"short\"");
    expect(await t.app.store.db.selectFrom("email_password_credentials").select("password_hash").where("user_id", "=", id).executeTakeFirstOrThrow()).toEqual(before);
    expect(await call("POST", `/admin/users/${id}/password`, { form: { password: "a brand new long passphrase" } })).toMatchObject({ flash: { kind: "ok" } });
    expect((await signIn(email, "a brand new long passphrase")).status).toBe("OK");
    expect(await sources("user.password_changed", id)).toEqual([`admin:${ADMIN.id}`]);
  });

  it("links another user by email, unlinks a login method, refuses what is not theirs", async () => {
    const a = await userId("link-a@example.com");
    const b = await userId("link-b@example.com");
    expect(await call("POST", `/admin/users/${a}/link`, { form: { other: "nobody@example.com" } })).toMatchObject({ flash: { kind: "error", text: "No user is nobody@example.com." } });
    expect(await call("POST", `/admin/users/${a}/link`, { form: { other: "LINK-B@example.com" } })).toMatchObject({ redirect: `/admin/users/${a}`, flash: { kind: "ok" } });
    expect(html(await call("GET", `/admin/users/${b}`))).toContain("link-b@example.com");
    expect(await sources("user.linked", a)).toEqual([`admin:${ADMIN.id}`]);
    expect(await call("POST", `/admin/users/${a}/unlink`, { form: { recipeUserId: "not-a-member" } })).toMatchObject({ flash: { kind: "error" } });
    expect(await call("POST", `/admin/users/${a}/unlink`, { form: { recipeUserId: b } })).toMatchObject({ redirect: `/admin/users/${a}`, flash: { kind: "ok" } });
    const row = await t.app.store.db.selectFrom("users").select("primary_user_id").where("id", "=", b).executeTakeFirstOrThrow();
    expect(row.primary_user_id).toBeNull();
  });

  it("deletes only with the email typed back, and says so for an unknown id", async () => {
    const id = await userId("delete-me@example.com");
    expect(await call("POST", `/admin/users/${id}/delete`, { form: { confirm: "delete-m" } })).toMatchObject({ redirect: `/admin/users/${id}`, flash: { kind: "error" } });
    expect(await t.app.store.db.selectFrom("users").select("id").where("id", "=", id).executeTakeFirst()).toBeDefined();
    expect(await call("POST", `/admin/users/${id}/delete`, { form: { confirm: "Delete-Me@example.com" } })).toEqual({ redirect: "/admin/users", flash: { kind: "ok", text: "Deleted delete-me@example.com." } });
    expect(await t.app.store.db.selectFrom("users").select("id").where("id", "=", id).executeTakeFirst()).toBeUndefined();
    expect(await sources("user.deleted", id)).toEqual([`admin:${ADMIN.id}`]);
    expect(await call("POST", `/admin/users/${id}/delete`, { form: { confirm: "delete-me@example.com" } })).toMatchObject({ redirect: "/admin/users", flash: { kind: "error" } });
  });
});
