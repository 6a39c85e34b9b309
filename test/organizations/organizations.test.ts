import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { listEvents } from "../../src/store/events.js";
import { call, invitationToken, newPerson, orgClaim, refreshOrg, verifyAddress, type Person } from "./helpers.js";

const OWNER_PERMS = ["invitations:create", "invitations:read", "invitations:revoke", "members:read", "members:remove", "members:update", "org:delete", "org:read", "org:update"];
const MEMBER_PERMS = ["members:read", "org:read"];

describe.each(backends)("organizations through HTTP ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend, start: true, config: { mode: "development", mailCatcher: true, mailCatcherPort: 0, rateLimits: false } });
  });
  afterAll(async () => { await t.close(); });

  it("create → invite → mail → accept (existing and new person) → claim → role change at the next refresh → removal", async () => {
    const ada = await newPerson(t, "ada@acme.test");
    const bob = await newPerson(t, "bob@acme.test");
    expect(orgClaim(ada)).toBeNull();

    // Creating re-issues the creator's access token (and front-token) with the new organization in `org`.
    const created = await call(t, "POST", "/organizations", ada, { name: "Acme, Inc." });
    expect(created.status).toBe(200);
    const org = created.json.organization;
    expect(created.json).toMatchObject({ status: "OK", organization: { id: expect.any(String), name: "Acme, Inc.", slug: "acme-inc", metadata: {} } });
    const claim = { id: org.id, slug: "acme-inc", role: "owner", permissions: OWNER_PERMS };
    expect(orgClaim(ada)).toEqual(claim);
    expect(created.front?.up.org).toEqual(claim);

    // An existing person is invited as admin; the mail goes out after the commit, to the real catcher.
    const inv = await call(t, "POST", `/organizations/${org.id}/invitations`, ada, { email: "Bob@Acme.test", role: "admin" });
    expect(inv.json).toMatchObject({ status: "OK", invitation: { email: "bob@acme.test", role: "admin", organizationId: org.id } });
    expect(inv.json.invitation.expiresAt - inv.json.invitation.createdAt).toBe(7 * 86_400_000);
    const bobMail = await invitationToken(t, "bob@acme.test");
    expect(bobMail.link).toContain("/accept-invitation?token=");
    // Only the token's hash is stored.
    const stored = await t.app.store.db.selectFrom("organization_invitations").select("token_hash").execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(bobMail.token);

    const accepted = await call(t, "POST", "/organizations/invitations/accept", bob, { token: bobMail.token });
    expect(accepted.json).toMatchObject({ status: "OK", organization: { id: org.id }, role: "admin" });
    expect(orgClaim(bob)).toMatchObject({ id: org.id, role: "admin", permissions: OWNER_PERMS.filter((p) => p !== "org:delete") });
    expect(accepted.front?.up.org).toEqual(orgClaim(bob));
    // Single use: the same link again is refused like any unknown token.
    expect((await call(t, "POST", "/organizations/invitations/accept", bob, { token: bobMail.token })).json).toEqual({ status: "INVITATION_INVALID_TOKEN_ERROR" });

    // A person with no account yet: invited, signs up, verifies the address, then accepts.
    expect((await call(t, "POST", `/organizations/${org.id}/invitations`, bob, { email: "carol@elsewhere.test" })).json.invitation.role).toBe("member");
    const carolMail = await invitationToken(t, "carol@elsewhere.test");
    const carol = await newPerson(t, "carol@elsewhere.test", false);
    expect((await call(t, "POST", "/organizations/invitations/accept", carol, { token: carolMail.token })).json).toEqual({ status: "INVITATION_EMAIL_NOT_VERIFIED_ERROR" });
    await verifyAddress(t, carol);
    expect((await call(t, "POST", "/organizations/invitations/accept", carol, { token: carolMail.token })).json.status).toBe("OK");
    expect(orgClaim(carol)).toEqual({ id: org.id, slug: "acme-inc", role: "member", permissions: MEMBER_PERMS });

    const members = await call(t, "GET", `/organizations/${org.id}/members`, carol);
    expect(members.json.members.map((m: { email: string; role: string }) => `${m.email}:${m.role}`)).toEqual(["ada@acme.test:owner", "bob@acme.test:admin", "carol@elsewhere.test:member"]);

    // A role change is seen by carol at her next refresh (the token in hand is unchanged until then).
    expect((await call(t, "PUT", `/organizations/${org.id}/members/${carol.id}`, ada, { role: "admin" })).json.member).toMatchObject({ userId: carol.id, role: "admin" });
    expect(orgClaim(carol).role).toBe("member");
    expect(await refreshOrg(t, carol)).toMatchObject({ id: org.id, role: "admin" });

    // Removed: the claim is gone at the next refresh and the organization answers 404.
    expect((await call(t, "POST", `/organizations/${org.id}/members/${carol.id}/remove`, bob)).json).toEqual({ status: "OK" });
    expect(await refreshOrg(t, carol)).toBeNull();
    expect((await call(t, "GET", `/organizations/${org.id}`, carol)).status).toBe(404);

    // Rename: every member's claim carries the new slug at their next refresh.
    expect((await call(t, "PUT", `/organizations/${org.id}`, ada, { name: "Acme", slug: "acme" })).json.organization).toMatchObject({ name: "Acme", slug: "acme" });
    expect(orgClaim(ada).slug).toBe("acme");
    expect((await refreshOrg(t, bob)).slug).toBe("acme");

    const types = (await listEvents(t.app.store.db)).map((e) => e.type).filter((x) => x.startsWith("organization."));
    expect(types.sort()).toEqual([
      "organization.created", "organization.invitation_accepted", "organization.invitation_accepted", "organization.invitation_created", "organization.invitation_created",
      "organization.member_added", "organization.member_added", "organization.member_removed", "organization.member_role_changed", "organization.updated",
    ]);
  });

  it("one person in three organizations with three roles, switching between them", async () => {
    const dan = await newPerson(t, "dan@three.test");
    const erin = await newPerson(t, "erin@three.test");
    const o1 = (await call(t, "POST", "/organizations", dan, { name: "Dan's own" })).json.organization;
    const o2 = (await call(t, "POST", "/organizations", erin, { name: "Erin two" })).json.organization;
    const o3 = (await call(t, "POST", "/organizations", erin, { name: "Erin three" })).json.organization;
    let last = 0;
    for (const [o, role] of [[o2, "admin"], [o3, "member"]] as const) {
      expect((await call(t, "POST", `/organizations/${o.id}/invitations`, erin, { email: dan.email, role })).status).toBe(200);
      const m = await invitationToken(t, dan.email, last);
      last = m.id;
      expect((await call(t, "POST", "/organizations/invitations/accept", dan, { token: m.token })).json.status).toBe("OK");
    }
    const mine = await call(t, "GET", "/organizations", dan);
    expect(mine.json.organizations.map((o: { slug: string; role: string; active: boolean }) => [o.slug, o.role, o.active])).toEqual([
      [o1.slug, "owner", false], [o2.slug, "admin", false], [o3.slug, "member", true],
    ]);
    for (const [o, role] of [[o1, "owner"], [o2, "admin"], [o3, "member"], [o1, "owner"]] as const) {
      const r = await call(t, "PUT", "/organizations/active", dan, { organizationId: o.id });
      expect(r.status).toBe(200);
      // Switching re-issues the token and the front-token, as the SDKs expect after a claim change.
      expect(r.front?.up.org).toMatchObject({ id: o.id, slug: o.slug, role });
      expect(orgClaim(dan)).toMatchObject({ id: o.id, role });
      // And it is what a refresh computes too.
      expect(await refreshOrg(t, dan)).toMatchObject({ id: o.id, role });
    }
    expect(orgClaim(erin).id).toBe(o3.id);
    expect((await call(t, "PUT", "/organizations/active", dan, { organizationId: null })).front?.up.org).toBeNull();
    // Not a member: the same 404 as no such organization; the claim stays.
    const other = (await call(t, "POST", "/organizations", erin, { name: "Erin alone" })).json.organization;
    expect((await call(t, "PUT", "/organizations/active", dan, { organizationId: other.id })).status).toBe(404);
    expect((await call(t, "PUT", "/organizations/active", dan, { organizationId: 7 })).status).toBe(400);
  });

  it("the last owner cannot leave, be demoted or be removed; with a second owner they can", async () => {
    const fay = await newPerson(t, "fay@owners.test");
    const gus = await newPerson(t, "gus@owners.test");
    const o = (await call(t, "POST", "/organizations", fay, { name: "Owners" })).json.organization;
    expect((await call(t, "POST", `/organizations/${o.id}/leave`, fay)).status).toBe(409);
    expect((await call(t, "PUT", `/organizations/${o.id}/members/${fay.id}`, fay, { role: "admin" })).status).toBe(409);
    expect((await call(t, "POST", `/organizations/${o.id}/members/${fay.id}/remove`, fay)).status).toBe(409);
    await call(t, "POST", `/organizations/${o.id}/invitations`, fay, { email: gus.email, role: "admin" });
    expect((await call(t, "POST", "/organizations/invitations/accept", gus, { token: (await invitationToken(t, gus.email)).token })).json.status).toBe("OK");
    // An admin cannot touch an owner, nor make anyone owner.
    expect((await call(t, "POST", `/organizations/${o.id}/members/${fay.id}/remove`, gus)).status).toBe(403);
    expect((await call(t, "PUT", `/organizations/${o.id}/members/${gus.id}`, gus, { role: "owner" })).status).toBe(403);
    expect((await call(t, "POST", `/organizations/${o.id}/delete`, gus, { confirm: o.slug })).status).toBe(403);
    expect((await call(t, "PUT", `/organizations/${o.id}/members/${gus.id}`, fay, { role: "owner" })).status).toBe(200);
    expect((await call(t, "POST", `/organizations/${o.id}/leave`, fay)).json.status).toBe("OK");
    // Fay's token was re-issued without the organization she left.
    expect(orgClaim(fay)).toBeNull();
    expect((await call(t, "POST", `/organizations/${o.id}/leave`, gus)).status).toBe(409);
    // Deleting needs the slug as confirmation; members lose the claim at their next refresh.
    expect((await call(t, "POST", `/organizations/${o.id}/delete`, gus, { confirm: "nope" })).status).toBe(400);
    expect((await call(t, "POST", `/organizations/${o.id}/delete`, gus, { confirm: o.slug })).json.status).toBe("OK");
    expect(orgClaim(gus)).toBeNull();
    expect((await call(t, "GET", `/organizations/${o.id}`, gus)).status).toBe(404);
  });

  it("refuses expired, reused and revoked invitations, and a resend kills the older link", async () => {
    const hal = await newPerson(t, "hal@inv.test");
    const ida = await newPerson(t, "ida@inv.test");
    const o = (await call(t, "POST", "/organizations", hal, { name: "Invites" })).json.organization;
    const invite = async () => (await call(t, "POST", `/organizations/${o.id}/invitations`, hal, { email: ida.email, role: "member" })).json.invitation;
    const accept = async (token: string) => (await call(t, "POST", "/organizations/invitations/accept", ida, { token })).json.status;

    // Revoked.
    const first = await invite();
    const m1 = await invitationToken(t, ida.email);
    expect((await call(t, "POST", `/organizations/${o.id}/invitations`, hal, { email: ida.email })).status).toBe(409);
    expect((await call(t, "GET", `/organizations/${o.id}/invitations`, hal)).json.invitations.map((i: { id: string }) => i.id)).toEqual([first.id]);
    expect((await call(t, "POST", `/organizations/${o.id}/invitations/${first.id}/revoke`, hal)).json).toEqual({ status: "OK" });
    expect(await accept(m1.token)).toBe("INVITATION_INVALID_TOKEN_ERROR");
    expect((await call(t, "POST", `/organizations/${o.id}/invitations/${first.id}/revoke`, hal)).status).toBe(404);

    // Expired: seven days and a moment later (the refresh token outlives it).
    await invite();
    const m2 = await invitationToken(t, ida.email, m1.id);
    t.clock.advance(7 * 86_400_000 + 1);
    await refreshOrg(t, ida);
    await refreshOrg(t, hal);
    expect(await accept(m2.token)).toBe("INVITATION_INVALID_TOKEN_ERROR");

    // A resend mails a new link; the old one no longer works, the new one does, once.
    const third = await invite();
    const m3 = await invitationToken(t, ida.email, m2.id);
    expect((await call(t, "POST", `/organizations/${o.id}/invitations/${third.id}/resend`, hal)).json.invitation.id).toBe(third.id);
    const m4 = await invitationToken(t, ida.email, m3.id);
    expect(m4.token).not.toBe(m3.token);
    expect(await accept(m3.token)).toBe("INVITATION_INVALID_TOKEN_ERROR");
    expect(await accept("x".repeat(43))).toBe("INVITATION_INVALID_TOKEN_ERROR");
    expect(await accept(m4.token)).toBe("OK");
    expect(await accept(m4.token)).toBe("INVITATION_INVALID_TOKEN_ERROR");
    expect((await call(t, "POST", "/organizations/invitations/accept", ida, {})).status).toBe(400);
    expect((await call(t, "POST", `/organizations/${o.id}/invitations`, hal, { email: ida.email })).status).toBe(409);
    expect((await call(t, "POST", `/organizations/${o.id}/invitations`, hal, { email: "not an address" })).status).toBe(400);
    expect((await call(t, "POST", `/organizations/${o.id}/invitations`, hal, { email: "x@inv.test", role: "ghost" })).status).toBe(400);
  });

  it("refuses bad input with a clear 400 and no session with 401, changing nothing", async () => {
    const jo = await newPerson(t, "jo@input.test", false);
    for (const bad of [{}, { name: "" }, { name: 5 }, { name: "x".repeat(101) }, { name: "ok", slug: "Not A Slug" }, { name: "ok", metadata: [] }, { name: "ok", metadata: { big: "x".repeat(5000) } }]) {
      expect((await call(t, "POST", "/organizations", jo, bad)).status).toBe(400);
    }
    expect((await call(t, "POST", "/organizations", undefined, { name: "x" })).status).toBe(401);
    expect((await call(t, "GET", "/organizations", jo)).json.organizations).toEqual([]);
    const o = (await call(t, "POST", "/organizations", jo, { name: "Meta", metadata: { plan: "pro" } })).json.organization;
    expect(o.metadata).toEqual({ plan: "pro" });
    expect((await call(t, "PUT", `/organizations/${o.id}`, jo, { metadata: { plan: null, seats: 3 } })).json.organization.metadata).toEqual({ seats: 3 });
    expect((await call(t, "POST", "/organizations", jo, { name: "Meta 2", slug: o.slug })).status).toBe(409);
  });
});
