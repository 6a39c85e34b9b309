import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { authorizeInBrowser, CONFIDENTIAL, REDIRECT_URI, startOidcProvider, type TestIdp } from "../helpers/oidc-provider.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { admin, KEY } from "../http/admin/admin-client.js";
import { call, newPerson } from "../organizations/helpers.js";
import { connectionsForAddress } from "../../src/sso/lookup.js";

/**
 * OpenID Connect connections per organization against a real OpenID provider (`oidc-provider`):
 * added with `authsvc orgs sso add --oidc-issuer`, its client secret sealed and never printed, and
 * to the SDKs the third-party provider `oidc-<id>`: GET /authorisationurl (PKCE and a nonce), the
 * provider's login, POST /signinup. The organization's proven domain vouches for an address; an
 * address elsewhere needs the provider's email_verified and never joins another account; the
 * groups claim gives the role; sign-ins are a webhook event and an audit-log entry.
 */
const SECRET = "a-server-secret-for-the-oidc-connection-tests-0123456789";

describe.each(backends)("OpenID Connect connections ($name)", (backend) => {
  let t: TestApp;
  let idp: TestIdp;
  let dir: string;
  let org: { id: string; slug: string };
  let conn: { id: string; thirdPartyId: string; issuer: string; clientId: string };
  const cli = (...args: string[]) => runCli([...args, "--database", t.config.database], { env: { AUTHSVC_SECRET: SECRET } });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "authsvc-oidc-sso-"));
    idp = await startOidcProvider();
    t = await createTestApp({ backend, start: true, config: { mode: "development", mailCatcher: true, mailCatcherPort: 0, rateLimits: false, adminApiKey: KEY, secret: SECRET } });
    const owner = await newPerson(t, "owner@contoso.test");
    org = (await call(t, "POST", "/organizations", owner, { name: "Contoso" })).json.organization;
    expect((await admin(t, "PUT", `/organizations/${org.id}/domains/contoso.test`, {})).status).toBe(200);
    const secretFile = join(dir, "client-secret");
    writeFileSync(secretFile, `${CONFIDENTIAL.clientSecret}\n`);
    const r = await cli("orgs", "sso", "add", org.slug, "--oidc-issuer", idp.issuer, "--client-id", CONFIDENTIAL.clientId, "--client-secret-file", secretFile, "--scope", "openid email groups", "--json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(CONFIDENTIAL.clientSecret);
    conn = JSON.parse(r.stdout).connection;
  });
  afterAll(async () => { await t?.close(); await idp?.close(); rmSync(dir, { recursive: true, force: true }); });

  /** The SDK's round trip: authorisation URL, the provider's login as `login`, then /signinup with the callback's query. */
  async function signIn(login: string, opts: { verifier?: (v: string) => string; thirdPartyId?: string } = {}) {
    const thirdPartyId = opts.thirdPartyId ?? conn.thirdPartyId;
    const u = await fetch(`${t.url}/auth/authorisationurl?thirdPartyId=${thirdPartyId}&redirectURIOnProviderDashboard=${encodeURIComponent(REDIRECT_URI)}`);
    const start = (await u.json()) as Record<string, any>;
    if (u.status !== 200) return { status: u.status, json: start, start };
    const params = await authorizeInBrowser(start.urlWithQueryParams, login);
    const verifier = opts.verifier ? opts.verifier(start.pkceCodeVerifier) : start.pkceCodeVerifier;
    const res = await fetch(`${t.url}/auth/signinup`, {
      method: "POST", headers: { "content-type": "application/json", rid: "thirdparty", "st-auth-mode": "header" },
      body: JSON.stringify({ thirdPartyId, redirectURIInfo: { redirectURIOnProviderDashboard: REDIRECT_URI, redirectURIQueryParams: params, pkceCodeVerifier: verifier } }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, any>, start };
  }
  const roleOf = async (email: string) => (await admin(t, "GET", `/organizations/${org.id}/members`)).body.members.find((m: { email: string }) => m.email === email)?.role;
  const usersNamed = async (email: string) => (await admin(t, "GET", `/users?email=${encodeURIComponent(email)}`)).body.users ?? [];

  it("is added from the issuer, listed without its secret, which is stored sealed; a wrong issuer or a missing client id is refused", async () => {
    expect(conn).toMatchObject({ kind: "oidc", thirdPartyId: `oidc-${conn.id}`, issuer: idp.issuer, clientId: CONFIDENTIAL.clientId, scope: ["openid", "email", "groups"], redirectUri: expect.stringMatching(new RegExp(`^http://localhost:\\d+/auth/callback/oidc-${conn.id}$`)) });
    // What the hosted sign-in page's routing asks for an address (by the organization's proven domain).
    expect(await connectionsForAddress(t.app.ctx, "Someone@Contoso.test")).toEqual([expect.objectContaining({ organizationId: org.id, thirdPartyId: conn.thirdPartyId })]);
    expect(await connectionsForAddress(t.app.ctx, "someone@example.com")).toEqual([]);
    const list = await cli("orgs", "sso", "list", org.slug);
    expect(list.stdout).toContain(`${conn.id}  oidc  ${idp.issuer}  client ${CONFIDENTIAL.clientId}`);
    expect(list.stdout + JSON.stringify((await cli("orgs", "sso", "list", org.slug, "--json")).stdout)).not.toContain(CONFIDENTIAL.clientSecret);
    const row = await t.app.ctx.store.db.selectFrom("sso_connections").select("client_secret").where("id", "=", conn.id).executeTakeFirstOrThrow();
    expect(row.client_secret).toMatch(/^enc:v1:/);
    expect(row.client_secret).not.toContain(CONFIDENTIAL.clientSecret);
    const wrong = await cli("orgs", "sso", "add", org.slug, "--oidc-issuer", "http://127.0.0.1:9/nowhere", "--client-id", "x", "--client-secret", "y");
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("could not read the discovery document");
    const noClient = await cli("orgs", "sso", "add", org.slug, "--oidc-issuer", idp.issuer, "--client-secret", "y");
    expect(noClient).toMatchObject({ code: 2, stderr: expect.stringContaining("--client-id") });
    expect(JSON.parse((await cli("orgs", "sso", "list", org.slug, "--json")).stdout).connections).toHaveLength(1);
  });

  it("signs a new person in through the SDKs' flow (PKCE and a nonce), the proven domain vouching for the address, with the role from the groups claim", async () => {
    idp.accounts.set("alex", { email: "Alex@Contoso.test", email_verified: false, groups: ["admin", "Sales"] });
    const r = await signIn("alex");
    const auth = new URL(r.start.urlWithQueryParams);
    expect(auth.origin).toBe(idp.issuer);
    expect(auth.searchParams.get("code_challenge_method")).toBe("S256");
    expect(auth.searchParams.get("nonce")).toMatch(/^[\w-]{43}$/);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: "OK", createdNewRecipeUser: true, user: { emails: ["alex@contoso.test"], thirdParty: [{ id: conn.thirdPartyId, userId: "alex" }] } });
    const [user] = await usersNamed("alex@contoso.test");
    expect(user.loginMethods).toEqual([expect.objectContaining({ recipeId: "thirdparty", verified: true })]);
    expect(await roleOf("alex@contoso.test")).toBe("admin");
    const audit = (await admin(t, "GET", `/audit?action=organization.sso_signed_in&userId=${user.id}`)).body.entries;
    expect(audit).toEqual([expect.objectContaining({ userId: user.id, details: expect.objectContaining({ organizationId: org.id, connectionId: conn.id, kind: "oidc" }) })]);
  });

  it("links to the person who has the address verified; a wrong PKCE verifier (another browser) is refused", async () => {
    const pat = await newPerson(t, "pat@contoso.test");
    idp.accounts.set("pat", { email: "pat@contoso.test", email_verified: true });
    const stolen = await signIn("pat", { verifier: () => "x".repeat(43) });
    expect(stolen.status).toBe(400);
    expect(await roleOf("pat@contoso.test")).toBeUndefined();
    const r = await signIn("pat");
    expect(r.status).toBe(200);
    expect(r.json.user.id).toBe(pat.id);
    expect(await roleOf("pat@contoso.test")).toBe("member");
  });

  it("an address outside the proven domains: refused unless the provider verified it, and then it joins no one else's account", async () => {
    idp.accounts.set("guest", { email: "guest@example.com", email_verified: false });
    const refused = await signIn("guest");
    expect(refused).toMatchObject({ status: 400, json: { message: expect.stringContaining("email_verified") } });
    expect(await usersNamed("guest@example.com")).toEqual([]);
    idp.accounts.set("contractor", { email: "kim@example.com", email_verified: true });
    const ok = await signIn("contractor");
    expect(ok.status).toBe(200);
    expect((await usersNamed("kim@example.com"))[0].loginMethods).toEqual([expect.objectContaining({ verified: false })]);
    expect(await roleOf("kim@example.com")).toBe("member");
    // The organization's IdP claims an address someone else holds, verified: no way into their account.
    const victim = await newPerson(t, "victim@example.net");
    idp.accounts.set("mallory", { email: "victim@example.net", email_verified: true });
    const takeover = await signIn("mallory");
    expect(takeover.json.status).not.toBe("OK");
    const users = await usersNamed("victim@example.net");
    expect(users.map((u: { id: string }) => u.id)).toEqual([victim.id]);
  });

  it("once removed, the provider is unknown to the SDKs' flow", async () => {
    const r = await cli("orgs", "sso", "remove", org.slug, conn.id, "--json");
    expect(r).toMatchObject({ code: 0, stdout: expect.stringContaining(conn.id) });
    const after = await signIn("alex");
    expect(after).toMatchObject({ status: 400, json: { message: expect.stringContaining("could not be found") } });
    const removed = (await admin(t, "GET", "/audit?action=organization.sso_connection_removed")).body.entries;
    expect(removed).toEqual([expect.objectContaining({ actor: "cli", details: expect.objectContaining({ connectionId: conn.id }) })]);
  });
});
