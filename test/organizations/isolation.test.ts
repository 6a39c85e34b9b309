import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { call, invitationToken, newPerson, orgClaim, refreshOrg, type Person } from "./helpers.js";

/**
 * Isolation is the feature: every endpoint of organization A, called by someone who is not (or no
 * longer) a member of A, is refused and changes nothing: no row of any organization table, no mail,
 * no event. A member without the permission is refused the same way (403).
 */
describe.each(backends)("organization isolation ($name)", (backend) => {
  let t: TestApp;
  let owner: Person;
  let a: { id: string; slug: string };
  let invitationId = "";
  const outsiders: Record<string, Person> = {};
  let plainMember: Person;

  beforeAll(async () => {
    t = await createTestApp({ backend, start: true, config: { mode: "development", mailCatcher: true, mailCatcherPort: 0, rateLimits: false } });
    owner = await newPerson(t, "owner@a.test");
    a = (await call(t, "POST", "/organizations", owner, { name: "A" })).json.organization;
    // A member of another organization.
    outsiders.memberOfB = await newPerson(t, "member@b.test");
    expect((await call(t, "POST", "/organizations", outsiders.memberOfB, { name: "B" })).status).toBe(200);
    // Invited to A, holding the mail, never accepted.
    outsiders.invited = await newPerson(t, "invited@a.test");
    invitationId = (await call(t, "POST", `/organizations/${a.id}/invitations`, owner, { email: "invited@a.test", role: "admin" })).json.invitation.id;
    await invitationToken(t, "invited@a.test");
    // A member who was removed (as admin, so they had every permission before).
    outsiders.removed = await newPerson(t, "removed@a.test");
    await call(t, "POST", `/organizations/${a.id}/invitations`, owner, { email: "removed@a.test", role: "admin" });
    expect((await call(t, "POST", "/organizations/invitations/accept", outsiders.removed, { token: (await invitationToken(t, "removed@a.test")).token })).json.status).toBe("OK");
    expect((await call(t, "POST", `/organizations/${a.id}/members/${outsiders.removed.id}/remove`, owner)).status).toBe(200);
    // Someone with an account and nothing else.
    outsiders.plain = await newPerson(t, "plain@nowhere.test");
    // A member of A with the built-in member role (org:read, members:read only).
    plainMember = await newPerson(t, "member@a.test");
    await call(t, "POST", `/organizations/${a.id}/invitations`, owner, { email: "member@a.test", role: "member" });
    expect((await call(t, "POST", "/organizations/invitations/accept", plainMember, { token: (await invitationToken(t, "member@a.test")).token })).json.status).toBe("OK");
  });
  afterAll(async () => { await t.close(); });

  /** Every endpoint of organization A, as [method, path, body]. */
  const endpoints = (): Array<[string, string, unknown?]> => [
    ["GET", `/organizations/${a.id}`],
    ["PUT", `/organizations/${a.id}`, { name: "Taken over", metadata: { evil: true } }],
    ["POST", `/organizations/${a.id}/delete`, { confirm: a.slug }],
    ["POST", `/organizations/${a.id}/leave`],
    ["GET", `/organizations/${a.id}/members`],
    ["PUT", `/organizations/${a.id}/members/${owner.id}`, { role: "member" }],
    ["POST", `/organizations/${a.id}/members/${owner.id}/remove`],
    ["GET", `/organizations/${a.id}/invitations`],
    ["POST", `/organizations/${a.id}/invitations`, { email: "friend@evil.test", role: "owner" }],
    ["POST", `/organizations/${a.id}/invitations/${invitationId}/resend`],
    ["POST", `/organizations/${a.id}/invitations/${invitationId}/revoke`],
    ["PUT", "/organizations/active", { organizationId: a.id }],
    ["GET", `/organizations/${a.id}/domains`],
    ["POST", "/organizations/join", { organizationId: a.id }],
  ];

  /** Everything an endpoint could change: every row of the three tables, the outbox and the events. */
  async function snapshot() {
    const db = t.app.store.db;
    const rows = async (table: "organizations" | "organization_members" | "organization_invitations" | "organization_domains") =>
      JSON.stringify((await db.selectFrom(table).selectAll().execute()).map((r) => JSON.stringify(r)).sort());
    return {
      organizations: await rows("organizations"),
      members: await rows("organization_members"),
      invitations: await rows("organization_invitations"),
      domains: await rows("organization_domains"),
      mails: (await db.selectFrom("mail_outbox").select("id").execute()).length,
      events: (await db.selectFrom("events").select("id").execute()).length,
    };
  }

  it.each(["memberOfB", "invited", "removed", "plain"])("refuses %s on every endpoint of A with 404 and changes nothing", async (who) => {
    const before = await snapshot();
    const claimBefore = orgClaim(outsiders[who]);
    for (const [method, path, body] of endpoints()) {
      const r = await call(t, method, path, outsiders[who], body);
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 404 });
      expect(r.json.message).toMatch(/No such organization/);
      expect(r.front).toBeUndefined();
    }
    expect(await snapshot()).toEqual(before);
    expect(orgClaim(outsiders[who])).toEqual(claimBefore);
    // The removed member's token in hand still names A until it is refreshed; after that, none does.
    expect((await refreshOrg(t, outsiders[who]))?.id).not.toBe(a.id);
  });

  it("refuses a member of A the endpoints their role has no permission for (403) and changes nothing", async () => {
    const before = await snapshot();
    const allowed = new Set([`GET /organizations/${a.id}`, `GET /organizations/${a.id}/members`, `POST /organizations/${a.id}/leave`, "PUT /organizations/active", `GET /organizations/${a.id}/domains`, "POST /organizations/join"]);
    for (const [method, path, body] of endpoints()) {
      if (allowed.has(`${method} ${path}`)) continue;
      expect({ method, path, status: (await call(t, method, path, plainMember, body)).status }).toEqual({ method, path, status: 403 });
    }
    expect(await snapshot()).toEqual(before);
    expect((await call(t, "GET", `/organizations/${a.id}/members`, plainMember)).status).toBe(200);
  });
});
