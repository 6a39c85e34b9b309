import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { pwPost, startFlow } from "../helpers/passwordless.js";
import { authHeaders, readTokens, refresh } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { admin, KEY } from "../http/admin/admin-client.js";
import { call, newPerson } from "../organizations/helpers.js";
import { ERROR, GROUP, USER, patchOps, scim, scimToken } from "./helpers.js";

/**
 * SCIM provisioning replayed as Okta sends it (developer.okta.com, "SCIM 2.0 protocol reference"):
 * the lookup with startIndex and count, the create with a password (never kept), PUT for a profile
 * update and for deactivation, the newer PATCH `{"op":"replace","value":{"active":false}}`, groups
 * pushed empty, renamed by a value object, members added by PATCH and removed by
 * `members[value eq "…"]`. Also: filters, pagination, and one organization's token seeing nothing
 * of another's.
 */
describe.each(backends)("SCIM with Okta's requests ($name)", (backend) => {
  let t: TestApp;
  let token: string;
  let org: { id: string; slug: string };
  beforeAll(async () => {
    t = await createTestApp({ backend, start: true, config: { mode: "development", mailCatcher: true, mailCatcherPort: 0, rateLimits: false, adminApiKey: KEY, passwordlessFlowType: "code" } });
    const owner = await newPerson(t, "owner@initech.test");
    org = (await call(t, "POST", "/organizations", owner, { name: "Initech" })).json.organization;
    expect((await admin(t, "PUT", `/organizations/${org.id}/domains/initech.test`, {})).status).toBe(200);
    token = await scimToken(t, org.slug);
  });
  afterAll(async () => { await t?.close(); });

  const roleOf = async (email: string) => (await admin(t, "GET", `/organizations/${org.id}/members`)).body.members.find((m: { email: string }) => m.email === email)?.role;
  const oktaUser = (login: string, more: Record<string, unknown> = {}) => ({
    schemas: [USER], userName: login, name: { givenName: "Test", familyName: "User" },
    emails: [{ primary: true, value: login, type: "work" }], displayName: "Test User", locale: "en-US",
    externalId: `00u${login.length}jl29u0le5T6Aj10h7`, groups: [], password: "1mz050nq", active: true, ...more,
  });

  it("creates a new person (verified, passwordless), updates with PUT, deactivates with PUT and with PATCH", async () => {
    const login = "test.user@initech.test";
    expect((await scim(t, token, "GET", `/Users?filter=${encodeURIComponent(`userName eq "${login}"`)}&startIndex=1&count=100`)).json).toMatchObject({ totalResults: 0, startIndex: 1, itemsPerPage: 0 });
    const created = await scim(t, token, "POST", "/Users", oktaUser(login));
    expect(created.status).toBe(201);
    expect(created.json).not.toHaveProperty("password");
    const stored = await t.app.store.db.selectFrom("scim_users").select("resource").where("id", "=", created.json.id).executeTakeFirstOrThrow();
    expect(stored.resource).not.toContain("1mz050nq");
    // A new person whose address is verified, and who signs in with a mailed code.
    const person = await admin(t, "GET", `/users?email=${encodeURIComponent(login)}`);
    expect(person.body.users).toHaveLength(1);
    expect(person.body.users[0]).toMatchObject({ emails: [login], loginMethods: [expect.objectContaining({ recipeId: "passwordless", verified: true })] });
    expect(await roleOf(login)).toBe("member");
    const id = created.json.id as string;
    expect((await scim(t, token, "GET", `/Users/${id}`)).json).toMatchObject({ id, userName: login, active: true, name: { givenName: "Test" } });

    // The person signs in (a session with a refresh token), then Okta's PUT updates the profile.
    const session = await passwordlessSignIn(login);
    const put = await scim(t, token, "PUT", `/Users/${id}`, { ...oktaUser(login), name: { givenName: "Tess", familyName: "User" }, id });
    expect(put).toMatchObject({ status: 200, json: { name: { givenName: "Tess" }, active: true } });
    // Deactivation by PUT with active false: the session ends at once.
    const off = await scim(t, token, "PUT", `/Users/${id}`, { ...oktaUser(login), id, active: false });
    expect(off.json.active).toBe(false);
    expect((await fetch(`${t.url}/auth/signout`, { method: "POST", headers: authHeaders(session) })).status).toBe(401);
    expect((await refresh(t.url, session)).status).toBe(401);
    expect(await roleOf(login)).toBeUndefined();
    // Okta's newer PATCH forms: reactivate, then deactivate again.
    expect((await scim(t, token, "PATCH", `/Users/${id}`, patchOps({ op: "replace", value: { active: true } }))).json.active).toBe(true);
    expect(await roleOf(login)).toBe("member");
    const again = await passwordlessSignIn(login);
    expect((await scim(t, token, "PATCH", `/Users/${id}`, patchOps({ op: "replace", value: { active: false } }))).json.active).toBe(false);
    expect((await refresh(t.url, again)).status).toBe(401);
  });

  it("pushes groups: created empty, renamed by a value object, members added and removed, deleted", async () => {
    const u = (await scim(t, token, "POST", "/Users", oktaUser("bill@initech.test"))).json;
    const g = await scim(t, token, "POST", "/Groups", { schemas: [GROUP], displayName: "Test SCIMv2", members: [] });
    expect(g.status).toBe(201);
    expect((await scim(t, token, "GET", "/Groups?startIndex=1&count=100")).json.Resources.map((r: { displayName: string }) => r.displayName)).toContain("Test SCIMv2");
    // Okta's rename: a value object with id and displayName. Named after a role, it gives the role.
    const renamed = await scim(t, token, "PATCH", `/Groups/${g.json.id}`, patchOps({ op: "replace", value: { id: g.json.id, displayName: "admin" } }));
    expect(renamed.json.displayName).toBe("admin");
    expect((await scim(t, token, "PATCH", `/Groups/${g.json.id}`, patchOps({ op: "add", path: "members", value: [{ value: u.id, display: "bill@initech.test" }] }))).json.members).toEqual([expect.objectContaining({ value: u.id, display: "bill@initech.test" })]);
    expect(await roleOf("bill@initech.test")).toBe("admin");
    expect((await scim(t, token, "PATCH", `/Groups/${g.json.id}`, patchOps({ op: "remove", path: `members[value eq "${u.id}"]` }))).json.members).toEqual([]);
    expect(await roleOf("bill@initech.test")).toBe("member");
    // PUT with the whole member list, then DELETE: the role goes with the group.
    expect((await scim(t, token, "PUT", `/Groups/${g.json.id}`, { schemas: [GROUP], id: g.json.id, displayName: "admin", members: [{ value: u.id }] })).json.members).toHaveLength(1);
    expect(await roleOf("bill@initech.test")).toBe("admin");
    expect((await scim(t, token, "DELETE", `/Groups/${g.json.id}`)).status).toBe(204);
    expect(await roleOf("bill@initech.test")).toBe("member");
    expect((await scim(t, token, "GET", `/Groups/${g.json.id}`)).json).toMatchObject({ schemas: [ERROR], status: "404" });
  });

  it("filters (eq, co, sw, and), pages with startIndex and count, and keeps organizations apart", async () => {
    for (const n of ["peter", "samir", "michael"]) expect((await scim(t, token, "POST", "/Users", oktaUser(`${n}@initech.test`, { title: n === "peter" ? "Engineer" : "Manager" }))).status).toBe(201);
    const q = async (filter: string) => (await scim(t, token, "GET", `/Users?filter=${encodeURIComponent(filter)}`)).json.Resources.map((r: { userName: string }) => r.userName).sort();
    expect(await q('userName eq "PETER@initech.test"')).toEqual(["peter@initech.test"]);
    expect(await q('userName co "mi"')).toEqual(["michael@initech.test", "samir@initech.test"]);
    expect(await q('userName sw "s" and title eq "Manager"')).toEqual(["samir@initech.test"]);
    expect(await q('emails[type eq "work" and value sw "pe"]')).toEqual(["peter@initech.test"]);
    const all = (await scim(t, token, "GET", "/Users")).json.totalResults as number;
    const page = await scim(t, token, "GET", "/Users?startIndex=2&count=2");
    expect(page.json).toMatchObject({ totalResults: all, startIndex: 2, itemsPerPage: 2 });
    expect((await scim(t, token, "GET", "/Users?count=0")).json).toMatchObject({ totalResults: all, itemsPerPage: 0, Resources: [] });

    // Another organization's token sees none of these, and cannot change them.
    const owner2 = await newPerson(t, "owner@globex.test");
    const org2 = (await call(t, "POST", "/organizations", owner2, { name: "Globex" })).json.organization;
    const token2 = await scimToken(t, org2.id);
    expect((await scim(t, token2, "GET", "/Users")).json.totalResults).toBe(0);
    const someone = (await scim(t, token, "GET", `/Users?filter=${encodeURIComponent('userName eq "peter@initech.test"')}`)).json.Resources[0].id;
    expect((await scim(t, token2, "GET", `/Users/${someone}`)).status).toBe(404);
    expect((await scim(t, token2, "DELETE", `/Users/${someone}`)).status).toBe(404);
    expect((await scim(t, token2, "POST", "/Users", oktaUser("lumbergh@initech.test"))).status).toBe(400);
    expect((await scim(t, token, "GET", `/Users/${someone}`)).json.active).toBe(true);
  });

  /** Signs in with a mailed code (the catcher), header mode: the session's tokens. */
  async function passwordlessSignIn(email: string) {
    const f = await startFlow(t, email);
    const r = await pwPost(t, "/signinup/code/consume", { preAuthSessionId: f.preAuthSessionId, deviceId: f.deviceId, userInputCode: f.code, shouldTryLinkingWithSessionUser: false });
    expect(r.json.status).toBe("OK");
    return readTokens(r.res, "header", r.json);
  }
});
