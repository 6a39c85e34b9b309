import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addEndpoint } from "../../src/webhooks/endpoints.js";
import { backends } from "../helpers/backends.js";
import { eventually } from "../helpers/mail.js";
import { authHeaders, readTokens, refresh } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { startReceiver } from "../helpers/webhook-receiver.js";
import { admin, KEY } from "../http/admin/admin-client.js";
import { call, newPerson, type Person } from "../organizations/helpers.js";
import { ENTERPRISE, ERROR, GROUP, USER, patchOps, scim, scimToken } from "./helpers.js";

/**
 * SCIM provisioning replayed as Microsoft Entra ID sends it (learn.microsoft.com, "Develop and plan
 * provisioning for a SCIM endpoint": the request sequence of its provisioning service): a filter
 * by userName before creating, the create with the enterprise extension, PATCHes with "Replace"
 * and "Add" capitalised, a filtered path into emails, the manager, `active` as the string "False",
 * groups created empty and filled by PATCH. A person who already has the address verified is
 * linked, not duplicated; deprovisioning ends their session at once.
 */
describe.each(backends)("SCIM with Entra ID's requests ($name)", (backend) => {
  let t: TestApp;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  let token: string;
  let org: { id: string; slug: string };
  let owner: Person;
  beforeAll(async () => {
    rx = await startReceiver();
    t = await createTestApp({ backend, start: true, config: { mode: "development", mailCatcher: true, mailCatcherPort: 0, rateLimits: false, adminApiKey: KEY, webhookTimeoutMs: 1000 } });
    owner = await newPerson(t, "owner@contoso.test");
    org = (await call(t, "POST", "/organizations", owner, { name: "Contoso" })).json.organization;
    expect((await admin(t, "PUT", `/organizations/${org.id}/domains/contoso.test`, {})).status).toBe(200);
    token = await scimToken(t, org.slug);
  });
  afterAll(async () => { await t?.close(); await rx?.close(); });

  const members = async () => (await admin(t, "GET", `/organizations/${org.id}/members`)).body.members.map((m: { email: string; role: string }) => `${m.email}:${m.role}`).sort();

  it("the token: only its hash is stored, a new one replaces it, and without it nothing is answered", async () => {
    const stored = await t.app.store.db.selectFrom("scim_tokens").selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);
    const none = await scim(t, undefined, "GET", "/Users");
    expect(none).toMatchObject({ status: 401, json: { schemas: [ERROR], status: "401" } });
    expect((await scim(t, "x".repeat(43), "GET", "/Users")).status).toBe(401);
    const next = await scimToken(t, org.id);
    expect((await scim(t, token, "GET", "/Users")).status).toBe(401);
    expect((await scim(t, next, "GET", "/Users")).status).toBe(200);
    token = next;
    // Discovery: what a directory reads before it provisions.
    const spc = await scim(t, token, "GET", "/ServiceProviderConfig");
    expect(spc.json).toMatchObject({ patch: { supported: true }, filter: { supported: true }, bulk: { supported: false } });
    const types = await scim(t, token, "GET", "/ResourceTypes");
    expect(types.json.Resources.map((r: { id: string }) => r.id)).toEqual(["User", "Group"]);
    expect(types.json.Resources[0].schemaExtensions).toEqual([{ schema: ENTERPRISE, required: false }]);
    const schemas = await scim(t, token, "GET", "/Schemas");
    expect(schemas.json.Resources.map((s: { id: string }) => s.id)).toEqual([USER, GROUP, ENTERPRISE]);
    expect((await scim(t, token, "GET", `/Schemas/${ENTERPRISE}`)).json.attributes.map((a: { name: string }) => a.name)).toContain("manager");
  });

  it("create, patch, deactivate, reactivate and delete, as Entra sends them; the live session ends at deprovisioning", async () => {
    const ep = await addEndpoint(t.app.ctx, { url: rx.url, events: ["organization.scim_user_provisioned", "organization.scim_user_updated", "organization.scim_user_deprovisioned", "organization.scim_user_reactivated"] });
    // Alex already has an account here with the address verified, and a live session.
    const alex = await newPerson(t, "alex@contoso.test");
    const userName = "Alex@contoso.test";
    // 1. Entra looks the user up by its matching attribute first.
    const lookup = await scim(t, token, "GET", `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
    expect(lookup).toMatchObject({ status: 200, json: { totalResults: 0, Resources: [] } });
    // 2. The create, with the enterprise extension and Entra's meta.
    const created = await scim(t, token, "POST", "/Users", {
      schemas: [USER, ENTERPRISE], externalId: "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef", userName, active: true,
      emails: [{ primary: true, type: "work", value: "alex@contoso.test" }], meta: { resourceType: "User" },
      name: { formatted: "Alex Wilber", familyName: "Wilber", givenName: "Alex" }, roles: [],
      [ENTERPRISE]: { department: "Sales", employeeNumber: "42" },
    });
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    expect(created.json).toMatchObject({ schemas: [USER, ENTERPRISE], userName, active: true, externalId: "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef", name: { givenName: "Alex" }, [ENTERPRISE]: { department: "Sales" }, meta: { resourceType: "User", location: expect.stringMatching(new RegExp(`/scim/v2/Users/${id}$`)) } });
    // Linked to Alex by the verified address: the same person, now a member.
    const memberRow = await t.app.store.db.selectFrom("scim_users").select("user_id").where("id", "=", id).executeTakeFirstOrThrow();
    expect(memberRow.user_id).toBe(alex.id);
    expect(await members()).toEqual(["alex@contoso.test:member", "owner@contoso.test:owner"]);
    // A second create of the same userName is a uniqueness error; nothing changes.
    const again = await scim(t, token, "POST", "/Users", { schemas: [USER], userName: "alex@CONTOSO.test", emails: [{ value: "alex@contoso.test" }] });
    expect(again).toMatchObject({ status: 409, json: { schemas: [ERROR], status: "409", scimType: "uniqueness" } });
    // 3. The lookup finds it now (userName compares in any case).
    const found = await scim(t, token, "GET", `/Users?filter=${encodeURIComponent('userName eq "alex@contoso.test"')}`);
    expect(found.json).toMatchObject({ totalResults: 1, Resources: [{ id }] });
    // 4. Entra's PATCH forms: a filtered path into emails, a dotted path, the manager, a value object.
    const patched = await scim(t, token, "PATCH", `/Users/${id}`, patchOps(
      { op: "Replace", path: 'emails[type eq "work"].value', value: "alex.wilber@contoso.test" },
      { op: "Replace", path: "name.familyName", value: "Wilber-Smith" },
      { op: "Add", path: `${ENTERPRISE}:manager`, value: { value: "manager-id" } },
      { op: "Add", path: "displayName", value: "Alex W." },
      { op: "replace", value: { "name.givenName": "Alexander", title: "Seller" } },
    ));
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ emails: [{ type: "work", value: "alex.wilber@contoso.test", primary: true }], name: { familyName: "Wilber-Smith", givenName: "Alexander" }, displayName: "Alex W.", title: "Seller", [ENTERPRISE]: { department: "Sales", manager: { value: "manager-id" } }, active: true });
    // A malformed PATCH is refused in SCIM's terms, nothing changed.
    const bad = await scim(t, token, "PATCH", `/Users/${id}`, patchOps({ op: "Frobnicate", path: "title", value: "x" }));
    expect(bad).toMatchObject({ status: 400, json: { schemas: [ERROR], scimType: "invalidValue" } });
    expect((await scim(t, token, "GET", `/Users/${id}`)).json.title).toBe("Seller");

    // 5. Deprovisioning: Entra's "Replace" of active with the string "False".
    const before = await refresh(t.url, alex.tokens);
    expect(before.status).toBe(200);
    alex.tokens = readTokens(before, alex.tokens.mode, undefined, alex.tokens);
    const off = await scim(t, token, "PATCH", `/Users/${id}`, patchOps({ op: "Replace", path: "active", value: "False" }));
    expect(off).toMatchObject({ status: 200, json: { active: false } });
    // Their live access token is refused at its next use by authsvc, and their refresh token too.
    const signout = await fetch(`${t.url}/auth/signout`, { method: "POST", headers: authHeaders(alex.tokens) });
    expect({ status: signout.status, body: await signout.json() }).toEqual({ status: 401, body: { message: "unauthorised" } });
    expect((await refresh(t.url, alex.tokens)).status).toBe(401);
    expect(await members()).toEqual(["owner@contoso.test:owner"]);
    const ended = await t.app.store.db.selectFrom("sessions").select(["revoked_at", "revoke_reason"]).where("user_id", "=", alex.id).execute();
    expect(ended.length).toBeGreaterThan(0);
    expect(ended.every((s) => s.revoked_at !== null && s.revoke_reason === "deprovisioned")).toBe(true);
    // Reactivation ("True") makes them a member again.
    expect((await scim(t, token, "PATCH", `/Users/${id}`, patchOps({ op: "Replace", path: "active", value: "True" }))).json.active).toBe(true);
    expect(await members()).toEqual(["alex@contoso.test:member", "owner@contoso.test:owner"]);

    // 6. Delete: 204, then 404 in SCIM's schema; the person keeps their own account.
    expect((await scim(t, token, "DELETE", `/Users/${id}`)).status).toBe(204);
    expect(await scim(t, token, "GET", `/Users/${id}`)).toMatchObject({ status: 404, json: { schemas: [ERROR], status: "404" } });
    expect(await members()).toEqual(["owner@contoso.test:owner"]);
    expect((await admin(t, "GET", `/users/${alex.id}`)).status).toBe(200);

    // A webhook for each change, with what ended.
    await eventually(async () => rx.received.length >= 5);
    const got = rx.received.map((r) => rx.verify(ep.secret, r) as { type: string; data: Record<string, any> });
    expect(got.map((e) => e.type)).toEqual([
      "organization.scim_user_provisioned", "organization.scim_user_updated", "organization.scim_user_deprovisioned",
      "organization.scim_user_reactivated", "organization.scim_user_deprovisioned",
    ]);
    expect(got[2].data).toMatchObject({ organizationId: org.id, scimId: id, reason: "deactivated", endedWaysIn: { sessions: 1 } });
    expect(got[4].data).toMatchObject({ reason: "deleted" });
  });

  it("groups give roles: created empty, members added and removed by PATCH, as Entra does", async () => {
    const u = (await scim(t, token, "POST", "/Users", { schemas: [USER], userName: "megan@contoso.test", active: true, emails: [{ primary: true, type: "work", value: "megan@contoso.test" }] })).json;
    expect(await members()).toContain("megan@contoso.test:member");
    // Entra checks whether the group exists, then creates it without members.
    const look = await scim(t, token, "GET", `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "Admin"')}`);
    expect(look.json.totalResults).toBe(0);
    const g = await scim(t, token, "POST", "/Groups", { schemas: [GROUP], externalId: "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159", displayName: "Admin", meta: { resourceType: "Group" } });
    expect(g).toMatchObject({ status: 201, json: { displayName: "Admin", members: [] } });
    expect((await scim(t, token, "PATCH", `/Groups/${g.json.id}`, patchOps({ op: "Add", path: "members", value: [{ $ref: null, value: u.id }] }))).status).toBe(200);
    expect(await members()).toContain("megan@contoso.test:admin");
    expect((await scim(t, token, "GET", `/Users/${u.id}`)).json.groups).toEqual([expect.objectContaining({ value: g.json.id, display: "Admin" })]);
    const listed = await scim(t, token, "GET", `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "admin"')}`);
    expect(listed.json.Resources).toEqual([expect.not.objectContaining({ members: expect.anything() })]);
    // Entra's removal: "Remove" with the member in a value list.
    expect((await scim(t, token, "PATCH", `/Groups/${g.json.id}`, patchOps({ op: "Remove", path: "members", value: [{ value: u.id }] }))).json.members).toEqual([]);
    expect(await members()).toContain("megan@contoso.test:member");
    // A member who is not one of this organization's Users is refused, nothing changed.
    expect((await scim(t, token, "PATCH", `/Groups/${g.json.id}`, patchOps({ op: "Add", path: "members", value: [{ value: "not-a-user" }] }))).status).toBe(400);
    expect((await scim(t, token, "GET", `/Groups/${g.json.id}`)).json.members).toEqual([]);
  });

  it("refuses addresses the organization has not proven, and people whose address is someone's unverified login", async () => {
    const count = async () => (await t.app.store.db.selectFrom("users").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n;
    const n = await count();
    const outside = await scim(t, token, "POST", "/Users", { schemas: [USER], userName: "ceo@example.com", emails: [{ value: "ceo@example.com", primary: true }] });
    expect(outside).toMatchObject({ status: 400, json: { schemas: [ERROR], scimType: "invalidValue", detail: expect.stringContaining("example.com is not one of this organization's proven domains") } });
    const sub = await scim(t, token, "POST", "/Users", { schemas: [USER], userName: "x@eng.contoso.test" });
    expect(sub.status).toBe(400);
    // An unverified password account holds the address: account linking refuses, as for a sign-in.
    await newPerson(t, "pat@contoso.test", false);
    const m = await count();
    const held = await scim(t, token, "POST", "/Users", { schemas: [USER], userName: "pat@contoso.test" });
    expect(held).toMatchObject({ status: 409, json: { scimType: "uniqueness" } });
    expect(await count()).toBe(m);
    expect(m).toBe(Number(n) + 1);
    expect((await scim(t, token, "GET", `/Users?filter=${encodeURIComponent('userName sw "pat" or userName sw "ceo"')}`)).json.totalResults).toBe(0);
    expect((await scim(t, token, "GET", "/Users?filter=userName%20eq")).json).toMatchObject({ status: "400", scimType: "invalidFilter" });
  });
});
