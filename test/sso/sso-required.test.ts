import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { pwPost, startFlow } from "../helpers/passwordless.js";
import { startSamlIdp, type TestSamlIdp } from "../helpers/saml-idp.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { SoftwareAuthenticator } from "../helpers/software-authenticator.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { admin, KEY } from "../http/admin/admin-client.js";
import { call, newPerson } from "../organizations/helpers.js";

/**
 * Routing by address and "SSO required" (src/sso/routing.ts): POST /auth/sso/discover answers by
 * the domain alone; with SSO required, a password, a code and a passkey for an address at the
 * organization's proven domain are refused in the method's own refusal status with words naming
 * the IdP, while the organization's SAML connection still signs people in; other domains are
 * untouched, and switching it off lets the password in again.
 */
describe.each(backends)("SSO required and routing ($name)", (backend) => {
  let t: TestApp;
  let dir: string;
  let idp: TestSamlIdp;
  let org: { id: string; slug: string };
  let bare: { id: string; slug: string };
  let conn: { id: string; thirdPartyId: string };
  let passkey: SoftwareAuthenticator;
  const cli = (args: string[]) => runCli([...args, "--database", t.config.database]);
  const rid = (r: string) => ({ rid: r, "st-auth-mode": "header" });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "authsvc-sso-required-"));
    idp = startSamlIdp(dir);
    t = await createTestApp({ backend, start: true, config: { mode: "development", mailCatcher: true, mailCatcherPort: 0, rateLimits: false, adminApiKey: KEY } });
    const owner = await newPerson(t, "owner@example.com");
    org = (await call(t, "POST", "/organizations", owner, { name: "Contoso" })).json.organization;
    bare = (await call(t, "POST", "/organizations", owner, { name: "Fabrikam" })).json.organization;
    expect((await admin(t, "PUT", `/organizations/${org.id}/domains/contoso.test`, {})).status).toBe(200);
    expect((await admin(t, "PUT", `/organizations/${bare.id}/domains/fabrikam.test`, {})).status).toBe(200);
    const file = join(dir, "idp.xml");
    writeFileSync(file, idp.metadata);
    const added = await cli(["orgs", "sso", "add", org.slug, "--saml-metadata", file, "--json"]);
    expect(added.code).toBe(0);
    conn = JSON.parse(added.stdout).connection;
    // Before SSO is required: a password person and a passkey person at the domain.
    expect((await postJson(`${t.url}/auth/signup`, credentials("pat@contoso.test"), rid("emailpassword"))).status).toBe(200);
    passkey = new SoftwareAuthenticator(t.app.config.webauthnOrigins[0]);
    const options = await (await postJson(`${t.url}/auth/webauthn/options/register`, { email: "kim@contoso.test" }, rid("webauthn"))).json() as Record<string, any>;
    const up = await (await postJson(`${t.url}/auth/webauthn/signup`, { webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId, credential: passkey.register(options as never) }, rid("webauthn"))).json() as Record<string, any>;
    expect(up.status).toBe("OK");
  });
  afterAll(async () => { await t?.close(); rmSync(dir, { recursive: true, force: true }); });

  const discover = async (email: unknown) => {
    const res = await postJson(`${t.url}/auth/sso/discover`, { email });
    return { status: res.status, json: (await res.json()) as Record<string, any> };
  };
  const passwordSignIn = async (email: string) => {
    const res = await postJson(`${t.url}/auth/signin`, credentials(email), rid("emailpassword"));
    return { json: (await res.json()) as Record<string, any>, token: res.headers.get("st-access-token") };
  };
  const passkeySignIn = async () => {
    const o = await (await postJson(`${t.url}/auth/webauthn/options/signin`, {}, rid("webauthn"))).json() as Record<string, any>;
    const res = await postJson(`${t.url}/auth/webauthn/signin`, { webauthnGeneratedOptionsId: o.webauthnGeneratedOptionsId, credential: passkey.authenticate(o as never) }, rid("webauthn"));
    return { json: (await res.json()) as Record<string, any>, token: res.headers.get("st-access-token") };
  };
  const naming = expect.stringMatching(/contoso\.test.*Sign in with Contoso SSO/);

  it("discover: the domain's connection (the same for any address there), none elsewhere, 400 for a non-address", async () => {
    const known = await discover("Pat@Contoso.test");
    expect(known).toEqual({ status: 200, json: { status: "OK", connection: { connectionId: conn.id, kind: "saml", thirdPartyId: `saml-${conn.id}`, organizationName: "Contoso", loginPath: `/saml/${conn.id}/login`, ssoRequired: false } } });
    // No account at this address: the same answer, so the endpoint tells nothing about accounts.
    expect((await discover("nobody-here@contoso.test")).json).toEqual(known.json);
    expect((await discover("pat@example.com")).json).toEqual({ status: "OK", connection: null });
    // A proven domain whose organization has no connection routes nowhere.
    expect((await discover("someone@fabrikam.test")).json).toEqual({ status: "OK", connection: null });
    const bad = await discover("not an address");
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/email/);
  });

  it("require on: refused without a connection; on with one, shown by the admin API and discover, written to the audit log", async () => {
    const none = await cli(["orgs", "sso", "require", bare.slug, "on"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no SSO connection/);
    const on = await cli(["orgs", "sso", "require", org.slug, "on", "--json"]);
    expect(on.code).toBe(0);
    expect(JSON.parse(on.stdout)).toEqual({ organization: org.id, ssoRequired: true, changed: true });
    const state = await admin(t, "GET", `/organizations/${org.id}/sso`);
    expect(state.body).toMatchObject({ ssoRequired: true, connections: [{ id: conn.id, thirdPartyId: `saml-${conn.id}` }], scim: { token: false, tokenCreatedAt: null } });
    expect((await discover("pat@contoso.test")).json.connection.ssoRequired).toBe(true);
    const audit = await admin(t, "GET", "/audit?action=organization.sso_required_changed");
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.body)).toContain("organization.sso_required_changed");
  });

  it("a password sign-in and sign-up at the domain are refused naming the IdP; nothing is created", async () => {
    const signIn = await passwordSignIn("pat@contoso.test");
    expect(signIn.json).toEqual({ status: "SIGN_IN_NOT_ALLOWED", reason: naming });
    expect(signIn.token).toBeNull();
    const signUp = await postJson(`${t.url}/auth/signup`, credentials("newbie@contoso.test"), rid("emailpassword"));
    expect(await signUp.json()).toEqual({ status: "SIGN_UP_NOT_ALLOWED", reason: naming });
    expect(signUp.headers.get("st-access-token")).toBeNull();
    expect((await admin(t, "GET", "/users?email=newbie%40contoso.test")).body.users ?? []).toHaveLength(0);
  });

  it("a code by mail and a passkey at the domain are refused naming the IdP, with no session", async () => {
    const flow = await startFlow(t, "code@contoso.test");
    const consumed = await pwPost(t, "/signinup/code/consume", { deviceId: flow.deviceId, preAuthSessionId: flow.preAuthSessionId, userInputCode: flow.code });
    expect(consumed.json).toMatchObject({ status: expect.stringMatching(/NOT_ALLOWED$/), reason: naming });
    expect(consumed.res.headers.get("st-access-token")).toBeNull();
    const key = await passkeySignIn();
    expect(key.json).toEqual({ status: "SIGN_IN_NOT_ALLOWED", reason: naming });
    expect(key.token).toBeNull();
  });

  it("the organization's SAML connection still signs people in; other domains are untouched", async () => {
    const spMetadata = await (await fetch(`${t.url}/auth/saml/${conn.id}/metadata`)).text();
    const start = await fetch(`${t.url}/auth/saml/${conn.id}/login?redirectToPath=/home`, { redirect: "manual" });
    const response = await idp.respond(spMetadata, "sam@contoso.test", { inResponseTo: await idp.requestIdOf(start.headers.get("location")!, spMetadata) });
    const acs = await fetch(`${t.url}/auth/saml/${conn.id}/acs`, { method: "POST", redirect: "manual", body: new URLSearchParams({ SAMLResponse: response, RelayState: "/home" }) });
    expect(acs.status).toBe(303);
    expect(acs.headers.getSetCookie().some((c) => c.startsWith("sAccessToken=") && !c.startsWith("sAccessToken=;"))).toBe(true);
    expect((await postJson(`${t.url}/auth/signup`, credentials("eve@example.com"), rid("emailpassword"))).headers.get("st-access-token")).not.toBeNull();
  });

  it("require off through the admin API: the password and the passkey sign in again", async () => {
    expect((await admin(t, "PUT", `/organizations/${org.id}/sso/required`, { required: "yes" })).status).toBe(400);
    expect((await admin(t, "PUT", `/organizations/${org.id}/sso/required`, { required: false })).body).toEqual({ ssoRequired: false, changed: true });
    expect((await passwordSignIn("pat@contoso.test")).json.status).toBe("OK");
    expect((await passkeySignIn()).json.status).toBe("OK");
    expect((await discover("pat@contoso.test")).json.connection.ssoRequired).toBe(false);
  });
});
