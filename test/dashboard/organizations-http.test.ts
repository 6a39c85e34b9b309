import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { addDomain } from "../../src/organizations/domains.js";
import { createInvitation } from "../../src/organizations/invitations.js";
import { addMember, createOrganization } from "../../src/organizations/organizations.js";
import { backends } from "../helpers/backends.js";
import { createTestAdmin, dashboardSession, type DashboardClient } from "../helpers/dashboard.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/**
 * The organizations' section of the dashboard over HTTP (the organizations room declares it), on
 * SQLite and PostgreSQL: its place in the navigation, the list, one organization's page, and an
 * unknown one answered with a 404 page that says so.
 */
describe.each(backends)("dashboard organizations section over HTTP ($name)", (backend) => {
  let t: TestApp;
  let c: DashboardClient;
  beforeAll(async () => {
    t = await createTestApp({ backend });
    c = await dashboardSession(t.url, await createTestAdmin(t.app, { email: "root@example.com" }));
  });
  afterAll(async () => { await t?.close(); });

  const newUser = async (email: string) => {
    const up = await signUpWithPassword(t.app.ctx, { email, password: "correct horse battery staple" });
    if (up.status !== "OK") throw new Error(up.status);
    return up.user.id;
  };

  it("lists the organizations after Users in the navigation, and shows one with its members, invitations and domains", async () => {
    const owner = await newUser("owner@example.com");
    const member = await newUser("member@example.com");
    const org = await createOrganization(t.app.ctx, { name: "Acme <Co>" }, owner, { operator: "cli" });
    await addMember(t.app.ctx, org.id, member, "admin", "cli");
    await createInvitation(t.app.ctx, org.id, { operator: "cli" }, { email: "new@example.com", role: "member" });
    await addDomain(t.app.ctx, org.id, { domain: "acme.example" }, "cli");

    const list = await c.get("/admin/organizations");
    expect(list.status).toBe(200);
    const html = await list.text();
    const nav = [...html.matchAll(/<li><a href="([^"]+)"( aria-current="page")?>([^<]+)<\/a><\/li>/g)].map((m) => [m[1], m[3], Boolean(m[2])]);
    expect(nav.slice(0, 5)).toEqual([["/admin", "Overview", false], ["/admin/users", "Users", false], ["/admin/organizations", "Organizations", true], ["/admin/sso", "Enterprise SSO", false], ["/admin/outbox", "Mail outbox", false]]);
    expect(html).toContain(`<a href="/admin/organizations/${org.id}">Acme &lt;Co&gt;</a>`);

    const page = await (await c.get(`/admin/organizations/${org.id}`)).text();
    expect(page).toContain("<h1>Organization</h1>");
    expect(page).toContain("Members (2)");
    expect(page).toContain(`<a href="/admin/users/${member}">member@example.com</a>`);
    expect(page).toContain("Open invitations (1)");
    expect(page).toContain("new@example.com");
    expect(page).toContain("acme.example");
    expect(page).toContain('<a href="/admin/organizations" aria-current="page">Organizations</a>');
  });

  it("answers an unknown organization with a 404 page that says so", async () => {
    const res = await c.get("/admin/organizations/no-such-id");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('<p class="error" role="alert">No such organization</p>');
    expect(html).toContain('<a href="/admin/organizations">Back to organization</a>');
  });
});
