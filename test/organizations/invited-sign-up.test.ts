import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { eventually } from "../helpers/mail.js";
import { jwtPayload } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { call, invitationToken, newPerson } from "./helpers.js";

/**
 * An invited new person signs up from the invitation's link: the link proves the mailbox, so the
 * account starts verified and joined, and the invitation is the only mail they get (no
 * verification mail, no "open the link in the mail again").
 */
describe.each(backends)("sign-up by invitation ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend, start: true, config: { mode: "development", mailCatcher: true, mailCatcherPort: 0, rateLimits: false } });
  });
  afterAll(async () => { await t.close(); });

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${t.url}/auth${path}`, { method: "POST", headers: { "content-type": "application/json", "st-auth-mode": "header", ...headers }, body: JSON.stringify(body) });
    return { res, json: (await res.json()) as Record<string, any> };
  };
  const mailsTo = async (email: string) => (await t.app.store.db.selectFrom("caught_mail").select("subject").where("to_address", "=", email).execute()).map((m) => m.subject);
  const nothingPending = async () => (await t.app.store.db.selectFrom("mail_outbox").select("id").where("status", "=", "pending").execute()).length === 0;
  const queuedTo = async (email: string) => (await t.app.store.db.selectFrom("mail_outbox").select("kind").where("to_address", "=", email).execute()).map((m) => m.kind);

  it("one mail: the link shows the invitation, signs the new person up verified, joins them, and signs them in", async () => {
    const ada = await newPerson(t, "ada@team.test");
    const org = (await call(t, "POST", "/organizations", ada, { name: "Team Rocket" })).json.organization;
    expect((await call(t, "POST", `/organizations/${org.id}/invitations`, ada, { email: "New.Person@Else.test", role: "admin" })).json.status).toBe("OK");
    const { token } = await invitationToken(t, "new.person@else.test");

    // What the link invites to, for its holder.
    expect((await post("/organizations/invitations/describe", { token })).json).toEqual({
      status: "OK", email: "new.person@else.test", organization: { name: "Team Rocket" }, role: "admin", expiresAt: expect.any(Number), hasAccount: false,
    });

    // A password the policy refuses changes nothing: no account, the invitation still open.
    const weak = await post("/organizations/invitations/signup", { token, password: "short" });
    expect(weak.json).toMatchObject({ status: "FIELD_ERROR", formFields: [{ id: "password" }] });
    expect(await t.app.store.db.selectFrom("users").select("id").where("email", "=", "new.person@else.test").execute()).toEqual([]);

    const up = await post("/organizations/invitations/signup", { token, password: "a long and unusual passphrase" });
    expect(up.res.status).toBe(200);
    expect(up.json).toMatchObject({ status: "OK", user: { emails: ["new.person@else.test"] }, organization: { id: org.id, name: "Team Rocket" }, role: "admin" });
    // Signed in, verified, and the new organization is the active one in the very first token.
    const access = up.res.headers.get("st-access-token")!;
    expect(jwtPayload(access).org).toMatchObject({ id: org.id, role: "admin" });
    const verified = await fetch(`${t.url}/auth/user/email/verify`, { headers: { authorization: `Bearer ${access}` } });
    expect(await verified.json()).toMatchObject({ status: "OK", isVerified: true });
    const members = await call(t, "GET", `/organizations/${org.id}/members`, ada);
    expect(members.json.members.map((m: { email: string; role: string }) => `${m.email}:${m.role}`)).toEqual(["ada@team.test:owner", "new.person@else.test:admin"]);

    // The invitation was the one mail: nothing else is queued or caught for the address.
    await eventually(nothingPending);
    expect(await queuedTo("new.person@else.test")).toEqual(["organization_invitation"]);
    expect(await mailsTo("new.person@else.test")).toEqual(["You are invited to join Team Rocket (admin)"]);

    // The link works once.
    expect((await post("/organizations/invitations/signup", { token, password: "another long passphrase here" })).json).toEqual({ status: "INVITATION_INVALID_TOKEN_ERROR" });
    expect((await post("/organizations/invitations/describe", { token })).json).toEqual({ status: "INVITATION_INVALID_TOKEN_ERROR" });
  });

  it("the invitation page's language is stored for the new person: their next mail is in it", async () => {
    const ada = await newPerson(t, "ada-lang@team.test");
    const org = (await call(t, "POST", "/organizations", ada, { name: "Sprachclub" })).json.organization;
    expect((await call(t, "POST", `/organizations/${org.id}/invitations`, ada, { email: "lena@else.test" })).json.status).toBe("OK");
    const { token } = await invitationToken(t, "lena@else.test");
    // The hosted page's language cookie (the page was read in German), whatever the browser sends.
    const up = await post("/organizations/invitations/signup", { token, password: "a long and unusual passphrase" }, { cookie: "authsvc-lang=de", "accept-language": "en" });
    expect(up.json.status).toBe("OK");
    const me = await fetch(`${t.url}/auth/account/me`, { headers: { authorization: `Bearer ${up.res.headers.get("st-access-token")}` } });
    expect(await me.json()).toMatchObject({ user: { locale: "de" } });
    // Asked from an English browser, the reset mail follows her stored German.
    await post("/user/password/reset/token", { formFields: [{ id: "email", value: "lena@else.test" }] }, { "accept-language": "en" });
    await eventually(async () => (await mailsTo("lena@else.test")).length === 2);
    expect(await mailsTo("lena@else.test")).toContain("Setze dein Passwort zurück");
  });

  it("an address that has an account signs in and accepts instead; an unknown token and bad input are refused", async () => {
    const owner = await newPerson(t, "owner@team.test");
    const org = (await call(t, "POST", "/organizations", owner, { name: "Known Ones" })).json.organization;
    await newPerson(t, "known@team.test", false);
    await call(t, "POST", `/organizations/${org.id}/invitations`, owner, { email: "known@team.test" });
    const { token } = await invitationToken(t, "known@team.test");
    expect((await post("/organizations/invitations/describe", { token })).json).toMatchObject({ status: "OK", hasAccount: true });
    expect((await post("/organizations/invitations/signup", { token, password: "a long and unusual passphrase" })).json).toEqual({ status: "INVITATION_ACCOUNT_EXISTS_ERROR" });
    // Still open for the signed-in way.
    expect((await t.app.store.db.selectFrom("organization_invitations").select("accepted_at").where("email", "=", "known@team.test").executeTakeFirstOrThrow()).accepted_at).toBeNull();

    expect((await post("/organizations/invitations/signup", { token: "x".repeat(43), password: "a long and unusual passphrase" })).json).toEqual({ status: "INVITATION_INVALID_TOKEN_ERROR" });
    const bad = await post("/organizations/invitations/signup", { password: "a long and unusual passphrase" });
    expect(bad.res.status).toBe(400);
    expect(bad.json.message).toMatch(/token is required/);
  });
});
