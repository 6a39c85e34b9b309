import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { eventually } from "../helpers/mail.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { startReceiver } from "../helpers/webhook-receiver.js";
import { admin, KEY } from "../http/admin/admin-client.js";
import { addEndpoint } from "../../src/webhooks/endpoints.js";
import { call, invitationToken, newPerson, refreshOrg } from "./helpers.js";

describe.each(backends)("organizations in the admin API, with operator roles and webhooks ($name)", (backend) => {
  let t: TestApp;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    t = await createTestApp({ backend, start: true, config: { mode: "development", mailCatcher: true, mailCatcherPort: 0, rateLimits: false, adminApiKey: KEY, webhookTimeoutMs: 1000 } });
    rx = await startReceiver();
  });
  afterAll(async () => { await rx.close(); await t.close(); });

  it("the operator creates, staffs, invites, re-roles with an operator role and deletes; every change is a webhook", async () => {
    const ep = await addEndpoint(t.app.ctx, { url: rx.url, events: ["organization.created", "organization.updated", "organization.deleted", "organization.member_added", "organization.member_role_changed", "organization.member_removed", "organization.invitation_created", "organization.invitation_revoked", "organization.invitation_accepted"] });
    const kim = await newPerson(t, "kim@ops.test");
    const lou = await newPerson(t, "lou@ops.test");

    expect((await admin(t, "POST", "/organizations", { name: "Ops" })).status).toBe(400);
    expect((await admin(t, "POST", "/organizations", { name: "Ops", ownerUserId: "nobody" })).status).toBe(404);
    const created = await admin(t, "POST", "/organizations", { name: "Ops", ownerUserId: kim.id, metadata: { plan: "team" } });
    expect(created).toMatchObject({ status: 201, body: { organization: { name: "Ops", slug: "ops", metadata: { plan: "team" } } } });
    const o = created.body.organization;
    // The operator's organization does not become anyone's active one by itself.
    expect(await refreshOrg(t, kim)).toBeNull();
    expect((await admin(t, "POST", `/organizations/${o.id}/members`, { userId: lou.id, role: "admin" })).status).toBe(201);
    expect((await admin(t, "POST", `/organizations/${o.id}/members`, { userId: lou.id })).status).toBe(409);

    // An operator-defined role (the roles room's model) given in this organization: its permissions are the claim's.
    expect((await admin(t, "PUT", "/roles/billing", { permissions: ["invoices:read", "members:read"], organization: true })).status).toBe(201);
    // An admin cannot hand out a role with a permission they lack; the owner can.
    expect((await call(t, "PUT", `/organizations/${o.id}/members/${lou.id}`, lou, { role: "billing" })).status).toBe(403);
    expect((await call(t, "PUT", `/organizations/${o.id}/members/${lou.id}`, kim, { role: "billing" })).status).toBe(200);
    expect((await call(t, "PUT", "/organizations/active", lou, { organizationId: o.id })).front?.up.org).toEqual({ id: o.id, slug: "ops", role: "billing", permissions: ["invoices:read", "members:read"] });
    expect((await call(t, "GET", `/organizations/${o.id}/members`, lou)).status).toBe(200);
    expect((await call(t, "GET", `/organizations/${o.id}/invitations`, lou)).status).toBe(403);
    expect((await admin(t, "PUT", `/organizations/${o.id}/members/${lou.id}`, { role: "ghost" })).status).toBe(400);

    expect((await admin(t, "GET", `/users/${lou.id}/organizations`)).body.organizations).toMatchObject([{ id: o.id, role: "billing", active: true }]);
    expect((await admin(t, "GET", "/organizations")).body.organizations.map((x: { id: string }) => x.id)).toContain(o.id);
    expect((await admin(t, "PUT", `/organizations/${o.id}`, { name: "Operations" })).body.organization.name).toBe("Operations");

    const inv = await admin(t, "POST", `/organizations/${o.id}/invitations`, { email: "max@ops.test" });
    expect(inv).toMatchObject({ status: 201, body: { invitation: { email: "max@ops.test", role: "member", invitedBy: null } } });
    await invitationToken(t, "max@ops.test");
    expect((await admin(t, "GET", `/organizations/${o.id}/invitations`)).body.invitations).toHaveLength(1);
    expect((await admin(t, "DELETE", `/organizations/${o.id}/invitations/${inv.body.invitation.id}`)).status).toBe(200);
    expect((await admin(t, "GET", `/organizations/${o.id}/invitations`)).body.invitations).toHaveLength(0);

    // The last owner holds even against the operator.
    expect((await admin(t, "DELETE", `/organizations/${o.id}/members/${kim.id}`)).status).toBe(409);
    expect((await admin(t, "PUT", `/organizations/${o.id}/members/${kim.id}`, { role: "member" })).status).toBe(409);
    expect((await admin(t, "DELETE", `/organizations/${o.id}/members/${lou.id}`)).status).toBe(200);
    expect((await admin(t, "DELETE", `/organizations/${o.id}`)).status).toBe(200);
    expect((await admin(t, "GET", `/organizations/${o.id}`)).status).toBe(404);
    expect(await refreshOrg(t, lou)).toBeNull();

    const expected = ["organization.created", "organization.member_added", "organization.member_role_changed", "organization.updated", "organization.invitation_created", "organization.invitation_revoked", "organization.member_removed", "organization.deleted"];
    await eventually(async () => rx.received.length >= expected.length);
    const got = rx.received.map((r) => rx.verify(ep.secret, r) as { type: string; data: Record<string, unknown> });
    expect(got.map((p) => p.type).sort()).toEqual([...expected].sort());
    expect(got.find((p) => p.type === "organization.member_role_changed")?.data).toMatchObject({ userId: lou.id, organizationId: o.id, from: "admin", role: "billing" });
  });

  it("an accepted invitation and a member who leaves are webhooks too", async () => {
    rx.received.length = 0;
    await addEndpoint(t.app.ctx, { url: rx.url, events: ["organization.invitation_accepted", "organization.member_removed"] });
    const ned = await newPerson(t, "ned@ops.test");
    const ola = await newPerson(t, "ola@ops.test");
    const o = (await call(t, "POST", "/organizations", ned, { name: "Hooks" })).json.organization;
    await call(t, "POST", `/organizations/${o.id}/invitations`, ned, { email: ola.email });
    expect((await call(t, "POST", "/organizations/invitations/accept", ola, { token: (await invitationToken(t, ola.email)).token })).json.status).toBe("OK");
    expect((await call(t, "POST", `/organizations/${o.id}/leave`, ola)).json.status).toBe("OK");
    const seen = () => rx.received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> }).map((p) => `${p.type} ${String(p.data.reason ?? "")}`.trim());
    // Both endpoints get them (the first one subscribed to these types too).
    await eventually(async () => seen().includes("organization.member_removed left") && seen().includes("organization.invitation_accepted"));
  });
});
