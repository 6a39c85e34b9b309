import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {} from "../../src/organizations/schema.js";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { admin, KEY } from "../http/admin/admin-client.js";
import { call, newPerson, refreshOrg } from "./helpers.js";

/**
 * Which roles an organization may hand out: its own (owner, admin, member) and the roles the
 * operator marked for organizations. Anyone can create an organization and be its owner, so a
 * platform role (users:delete) is refused wherever a role is given in one (an invitation, a role
 * change, a domain, the operator's own member calls), with the reason, and never reaches
 * org.permissions, not even for a membership given before the mark existed.
 */
describe.each(backends)("organization roles are the ones the operator allows ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend, start: true, config: { mode: "development", mailCatcher: true, mailCatcherPort: 0, rateLimits: false, adminApiKey: KEY } });
    expect((await admin(t, "PUT", "/roles/platform-admin", { permissions: ["users:delete", "users:read"] })).body).toMatchObject({ role: "platform-admin", organization: false, created: true });
    expect((await admin(t, "PUT", "/roles/billing", { permissions: ["invoices:read"], organization: true })).body).toMatchObject({ role: "billing", organization: true, created: true });
  });
  afterAll(async () => { await t?.close(); });

  it("the operator marks them in the admin API and the CLI, and the listings show the mark", async () => {
    expect((await admin(t, "GET", "/roles")).body.roles).toEqual([
      { role: "billing", permissions: ["invoices:read"], organization: true },
      { role: "platform-admin", permissions: ["users:delete", "users:read"], organization: false },
    ]);
    // Absent, the mark stays; given, it changes; anything but a boolean is a 400 that changes nothing.
    expect((await admin(t, "PUT", "/roles/billing", { permissions: ["invoices:read", "invoices:pay"] })).body).toMatchObject({ organization: true });
    expect((await admin(t, "PUT", "/roles/billing", { permissions: ["invoices:read"], organization: "yes" })).status).toBe(400);
    expect((await admin(t, "GET", "/roles")).body.roles[0]).toEqual({ role: "billing", permissions: ["invoices:pay", "invoices:read"], organization: true });

    const cli = (...args: string[]) => runCli(["roles", ...args, "--database", t.config.database]);
    expect(await cli("create", "viewer", "docs:read", "--organization")).toMatchObject({ code: 0, stdout: "created viewer (organizations): docs:read\n" });
    expect((await cli("list")).stdout).toContain("viewer (organizations): docs:read\n");
    expect((await cli("list")).stdout).toContain("platform-admin: users:delete, users:read\n");
    expect(JSON.parse((await cli("add-permissions", "viewer", "--no-organization", "--json")).stdout)).toMatchObject({ role: "viewer", organization: false, created: false });
  });

  it("an owner (anyone) cannot hand out a platform role: invitation, role change and domain are 400 with the reason, and org.permissions never carries it", async () => {
    const kim = await newPerson(t, "kim@roles.test");
    const lou = await newPerson(t, "lou@roles.test");
    const org = (await call(t, "POST", "/organizations", kim, { name: "Roles" })).json.organization as { id: string };
    const refused = (r: { status: number; json: Record<string, any> }) => {
      expect(r.status).toBe(400);
      expect(r.json.message).toContain("the role platform-admin is not one organizations may hand out");
    };
    refused(await call(t, "POST", `/organizations/${org.id}/invitations`, kim, { email: "max@roles.test", role: "platform-admin" }));
    expect((await call(t, "GET", `/organizations/${org.id}/invitations`, kim)).json.invitations).toEqual([]);
    expect((await admin(t, "POST", `/organizations/${org.id}/members`, { userId: lou.id, role: "member" })).status).toBe(201);
    refused(await call(t, "PUT", `/organizations/${org.id}/members/${lou.id}`, kim, { role: "platform-admin" }));
    const byOperator = await admin(t, "PUT", `/organizations/${org.id}/members/${lou.id}`, { role: "platform-admin" });
    expect(byOperator.status).toBe(400);
    expect(byOperator.body.message).toContain("not one organizations may hand out");
    expect((await admin(t, "PUT", `/organizations/${org.id}/domains/roles.test`, { role: "platform-admin" })).status).toBe(400);

    // What the role fields offer: the roles each may hand out. The owner: every organization role,
    // never the platform one; a member with billing only what billing's permissions cover.
    expect((await call(t, "GET", `/organizations/${org.id}/roles`, kim)).json.roles).toEqual(["owner", "admin", "member", "billing"]);

    // A marked role is allowed, with its permissions in the claim.
    expect((await call(t, "PUT", `/organizations/${org.id}/members/${lou.id}`, kim, { role: "billing" })).status).toBe(200);
    expect((await call(t, "GET", `/organizations/${org.id}/roles`, lou)).json.roles).toEqual(["billing"]);
    expect((await call(t, "PUT", "/organizations/active", lou, { organizationId: org.id })).status).toBe(200);
    expect(await refreshOrg(t, lou)).toMatchObject({ role: "billing", permissions: ["invoices:pay", "invoices:read"] });

    // A membership that holds a platform role from before the mark existed carries none of its permissions.
    await t.app.store.db.updateTable("organization_members").set({ role: "platform-admin" }).where("user_id", "=", lou.id).execute();
    const claim = await refreshOrg(t, lou);
    expect(claim).toMatchObject({ role: "platform-admin", permissions: [] });
    expect(JSON.stringify(claim)).not.toContain("users:delete");
  });
});
