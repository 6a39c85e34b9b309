import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { eventually } from "../helpers/mail.js";
import { CONFIDENTIAL, signInWithProvider, startOidcProvider, type TestIdp } from "../helpers/oidc-provider.js";
import { modeHeaders, readTokens } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { startReceiver } from "../helpers/webhook-receiver.js";
import { admin, KEY } from "../http/admin/admin-client.js";
import { addEndpoint } from "../../src/webhooks/endpoints.js";
import { call, newPerson, orgClaim, refreshOrg, verifyAddress, type Person } from "./helpers.js";

/**
 * Domain auto-join: the operator vouches for a domain; a person with a *verified* address there is
 * offered the organization and joins with the domain's role. Never through an unverified address,
 * a provider's unverified email, a subdomain or a look-alike.
 */
describe.each(backends)("organizations: joining through a proven domain ($name)", (backend) => {
  let t: TestApp;
  let idp: TestIdp;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    idp = await startOidcProvider();
    rx = await startReceiver();
    const providers = [{ thirdPartyId: "oidc", name: "Test OIDC", oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email"] }];
    t = await createTestApp({ backend, start: true, config: { mode: "development", mailCatcher: true, mailCatcherPort: 0, rateLimits: false, adminApiKey: KEY, providers, webhookTimeoutMs: 1000 } });
  });
  afterAll(async () => { await t?.close(); await idp?.close(); await rx?.close(); });

  const memberRows = async () => Number((await t.app.store.db.selectFrom("organization_members").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
  const joinable = async (p: Person) => (await call(t, "GET", "/organizations/joinable", p)).json.organizations.map((o: { slug: string; domain: string; role: string }) => `${o.slug}@${o.domain}:${o.role}`);
  /** Signs in with the provider, which says the address is (or is not) verified. */
  const viaProvider = async (login: string, email: string, verified: boolean): Promise<Person> => {
    idp.accounts.set(login, { email, email_verified: verified });
    const r = await signInWithProvider(t.url, "oidc", login, modeHeaders("header"));
    expect(r.json.status).toBe("OK");
    return { id: r.json.user.id, email, tokens: readTokens(r.res, "header", r.json) };
  };

  it("a verified address at the domain joins with the domain's role; unverified ones (password or provider) never do", async () => {
    const ep = await addEndpoint(t.app.ctx, { url: rx.url, events: ["organization.domain_added", "organization.domain_removed", "organization.member_added"] });
    const owner = await newPerson(t, "owner@acme.test");
    const org = (await call(t, "POST", "/organizations", owner, { name: "Acme" })).json.organization;

    // The operator vouches for the domain (the proof); bad domains and the owner role are refused, nothing stored.
    expect((await admin(t, "PUT", `/organizations/${org.id}/domains/not a domain`, {})).status).toBe(400);
    expect((await admin(t, "PUT", `/organizations/${org.id}/domains/acme.test`, { role: "owner" })).status).toBe(400);
    expect((await admin(t, "PUT", `/organizations/${org.id}/domains/acme.test`, { role: "no-such-role" })).status).toBe(400);
    expect((await admin(t, "GET", `/organizations/${org.id}/domains`)).body).toEqual({ domains: [] });
    const added = await admin(t, "PUT", `/organizations/${org.id}/domains/ACME.test`, { role: "admin" });
    expect(added).toMatchObject({ status: 200, body: { domain: { domain: "acme.test", organizationId: org.id, role: "admin", verifiedBy: "admin-api" } } });
    // Members see it; a domain belongs to one organization.
    expect((await call(t, "GET", `/organizations/${org.id}/domains`, owner)).json.domains.map((d: { domain: string }) => d.domain)).toEqual(["acme.test"]);
    const other = (await call(t, "POST", "/organizations", owner, { name: "Other" })).json.organization;
    expect((await admin(t, "PUT", `/organizations/${other.id}/domains/acme.test`, {})).status).toBe(409);

    // A password sign-up whose address is not verified yet: nothing offered, joining refused, nothing changed.
    const before = await memberRows();
    const eve = await newPerson(t, "eve@acme.test", false);
    expect(await joinable(eve)).toEqual([]);
    expect((await call(t, "POST", "/organizations/join", eve, { organizationId: org.id })).status).toBe(404);
    expect(await memberRows()).toBe(before);
    expect(await refreshOrg(t, eve)).toBeNull();

    // A provider that did not verify the address: the same refusal.
    const pat = await viaProvider("pat-login", "pat@acme.test", false);
    expect(await joinable(pat)).toEqual([]);
    expect((await call(t, "POST", "/organizations/join", pat, { organizationId: org.id })).status).toBe(404);
    // A subdomain and a look-alike domain are not the domain, even verified.
    const sub = await newPerson(t, "sub@eng.acme.test");
    const look = await newPerson(t, "look@acme.test.evil.test");
    for (const p of [sub, look]) {
      expect(await joinable(p)).toEqual([]);
      expect((await call(t, "POST", "/organizations/join", p, { organizationId: org.id })).status).toBe(404);
    }
    expect(await memberRows()).toBe(before);

    // Once eve proves the address she is offered the organization and joins as admin; the token says so at once.
    await verifyAddress(t, eve);
    expect(await joinable(eve)).toEqual(["acme@acme.test:admin"]);
    const joined = await call(t, "POST", "/organizations/join", eve, { organizationId: org.id });
    expect(joined.json).toMatchObject({ status: "OK", organization: { id: org.id, slug: "acme" }, role: "admin" });
    expect(orgClaim(eve)).toMatchObject({ id: org.id, role: "admin" });
    expect(joined.front?.up.org).toEqual(orgClaim(eve));
    // Once in, it is no longer offered, and a second join changes nothing.
    expect(await joinable(eve)).toEqual([]);
    expect((await call(t, "POST", "/organizations/join", eve, { organizationId: org.id })).status).toBe(404);

    // A provider that verified the address joins too.
    const ray = await viaProvider("ray-login", "ray@acme.test", true);
    expect(await joinable(ray)).toEqual(["acme@acme.test:admin"]);
    expect((await call(t, "POST", "/organizations/join", ray, { organizationId: org.id })).json.role).toBe("admin");
    expect((await call(t, "GET", `/organizations/${org.id}/members`, owner)).json.members.map((m: { email: string; role: string }) => `${m.email}:${m.role}`))
      .toEqual(["owner@acme.test:owner", "eve@acme.test:admin", "ray@acme.test:admin"]);

    // Removing the domain stops new joins; members stay.
    expect((await admin(t, "DELETE", `/organizations/${org.id}/domains/acme.test`)).body).toEqual({ removed: "acme.test" });
    expect((await admin(t, "DELETE", `/organizations/${org.id}/domains/acme.test`)).status).toBe(404);
    const kim = await newPerson(t, "kim@acme.test");
    expect(await joinable(kim)).toEqual([]);
    expect((await call(t, "POST", "/organizations/join", kim, { organizationId: org.id })).status).toBe(404);
    expect((await call(t, "GET", `/organizations/${org.id}/members`, owner)).json.members).toHaveLength(3);

    // Every change is a webhook.
    await eventually(async () => rx.received.length >= 4);
    const got = rx.received.map((r) => rx.verify(ep.secret, r) as { type: string; data: Record<string, unknown> });
    expect(got.map((e) => `${e.type} ${String(e.data.domain ?? "")} ${String(e.data.source)}`)).toEqual([
      "organization.domain_added acme.test admin-api", "organization.member_added acme.test domain", "organization.member_added acme.test domain", "organization.domain_removed acme.test admin-api",
    ]);
  });

  it("bad input to join is a 400 and an organization without the domain is the same 404 as none", async () => {
    const zed = await newPerson(t, "zed@zed.test");
    expect((await call(t, "POST", "/organizations/join", zed, {})).status).toBe(400);
    expect((await call(t, "POST", "/organizations/join", zed, { organizationId: "nope" })).status).toBe(404);
    expect((await call(t, "GET", "/organizations/joinable", undefined)).status).toBe(401);
  });
});
