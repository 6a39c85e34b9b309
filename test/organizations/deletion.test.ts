import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteDueAccounts } from "../../src/account/deletion.js";
import { listEvents } from "../../src/store/events.js";
import { backends } from "../helpers/backends.js";
import { authHeaders } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { admin, KEY } from "../http/admin/admin-client.js";
import { call, newPerson, type Person } from "./helpers.js";

const PASSWORD = "correct horse battery staple";

/**
 * Deleting a person who is the only owner of an organization: refused with the organizations
 * named (their own deletion and the operator's), nothing changed; an organization where they are
 * the only member goes with them.
 */
describe.each(backends)("organizations when their only owner is deleted ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend, start: true, config: { mode: "development", mailCatcher: true, mailCatcherPort: 0, rateLimits: false, adminApiKey: KEY } });
  });
  afterAll(async () => { await t.close(); });

  const create = async (owner: Person, name: string) => (await call(t, "POST", "/organizations", owner, { name })).json.organization as { id: string; slug: string };
  const join = async (org: { id: string }, p: Person, role = "member") => expect((await admin(t, "POST", `/organizations/${org.id}/members`, { userId: p.id, role })).status).toBe(201);
  const exists = async (userId: string) => (await admin(t, "GET", `/users/${userId}`)).status === 200;
  const orgExists = async (id: string) => (await admin(t, "GET", `/organizations/${id}`)).status === 200;
  const state = async () => ({
    users: (await t.app.store.db.selectFrom("users").select("id").execute()).length,
    organizations: JSON.stringify(await t.app.store.db.selectFrom("organizations").selectAll().orderBy("id").execute()),
    members: (await t.app.store.db.selectFrom("organization_members").select("user_id").execute()).length,
    deletions: (await t.app.store.db.selectFrom("account_deletions").select("user_id").execute()).length,
    events: (await t.app.store.db.selectFrom("events").select("id").execute()).length,
  });

  it("refuses the person's own deletion and the operator's, naming the organizations; once another member is owner it goes through", async () => {
    const ada = await newPerson(t, "ada@own.test");
    const bob = await newPerson(t, "bob@own.test");
    const acme = await create(ada, "Acme");
    const beta = await create(ada, "Beta");
    const solo = await create(ada, "Solo");
    await join(acme, bob);
    await join(beta, bob, "admin");

    const before = await state();
    const own = await call(t, "POST", "/account/delete", ada, { password: PASSWORD });
    expect(own.status).toBe(409);
    expect(own.json.message).toBe("The account cannot be deleted yet: it is the only owner of the organizations Acme (acme), Beta (beta); make another member owner, or delete them, first.");
    const byOperator = await admin(t, "DELETE", `/users/${ada.id}`);
    expect(byOperator.status).toBe(409);
    expect(byOperator.body.message).toMatch(/only owner of the organizations Acme \(acme\), Beta \(beta\)/);
    // Nothing changed: no deletion scheduled, no row gone, no event; ada's session still works.
    expect(await state()).toEqual(before);
    expect((await call(t, "GET", "/organizations", ada)).status).toBe(200);

    // Two owners in Acme, Beta deleted by its owner: the deletion goes through, and Solo (ada its only member) goes with her.
    expect((await call(t, "PUT", `/organizations/${acme.id}/members/${bob.id}`, ada, { role: "owner" })).status).toBe(200);
    expect((await call(t, "POST", `/organizations/${beta.id}/delete`, ada, { confirm: beta.slug })).status).toBe(200);
    expect((await admin(t, "DELETE", `/users/${ada.id}`)).body).toEqual({ deleted: ada.id });
    expect(await exists(ada.id)).toBe(false);
    expect(await orgExists(solo.id)).toBe(false);
    expect((await admin(t, "GET", `/organizations/${acme.id}/members`)).body.members.map((m: { email: string; role: string }) => `${m.email}:${m.role}`)).toEqual(["bob@own.test:owner"]);
    const gone = (await listEvents(t.app.store.db, { type: "organization.deleted", limit: 100 })).map((e) => JSON.parse(e.data ?? "{}") as Record<string, unknown>).find((d) => d.organizationId === solo.id);
    expect(gone).toMatchObject({ slug: "solo", reason: "owner_deleted", source: "admin-api" });
  });

  it("a scheduled deletion waits while the person became the only owner during the grace period", async () => {
    const cy = await newPerson(t, "cy@own.test");
    const dee = await newPerson(t, "dee@own.test");
    const org = await create(cy, "Gamma");
    await join(org, dee, "owner");
    // Two owners: cy may schedule her deletion.
    // (Its answer ends every session: the front-token says "remove", so plain fetch rather than call.)
    const asked = await fetch(`${t.url}/auth/account/delete`, { method: "POST", headers: { ...authHeaders(cy.tokens), "content-type": "application/json" }, body: JSON.stringify({ password: PASSWORD }) });
    expect(await asked.json()).toMatchObject({ status: "OK", deleted: false });
    // Meanwhile dee leaves: cy is the only owner of an organization with a member.
    const eve = await newPerson(t, "eve@own.test");
    await join(org, eve);
    expect((await call(t, "POST", `/organizations/${org.id}/leave`, dee)).status).toBe(200);
    t.clock.advance(8 * 86_400_000);
    expect(await deleteDueAccounts(t.app.ctx)).toBe(0);
    expect(await exists(cy.id)).toBe(true);
    // Once eve is owner too, the next run deletes cy.
    expect((await admin(t, "PUT", `/organizations/${org.id}/members/${eve.id}`, { role: "owner" })).status).toBe(200);
    expect(await deleteDueAccounts(t.app.ctx)).toBe(1);
    expect(await exists(cy.id)).toBe(false);
    expect(await orgExists(org.id)).toBe(true);
  });
});
