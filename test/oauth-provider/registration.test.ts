import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResource } from "../../src/oauth-provider/clients.js";
import type { OauthTables } from "../../src/oauth-provider/schema.js";
import { backends } from "../helpers/backends.js";
import { authorizeInBrowser, CookieJar, signUpInto, startOauthServer, type OauthServer } from "../helpers/oauth.js";

/** Dynamic client registration (RFC 7591) when the operator turns it on: public clients only, rate limited. */
describe.each(backends)("OAuth dynamic registration on $name", (backend) => {
  let s: OauthServer;
  beforeAll(async () => { s = await startOauthServer(backend, { oauthDynamicRegistration: true, limitOauthRegistrationIp: "4/1h" }); });
  afterAll(async () => { await s?.close(); });

  it("a public client registers itself, signs a person in with PKCE; confidential ones are refused; the budget is per IP", async () => {
    const doc = await (await fetch(`${s.url}/.well-known/oauth-authorization-server`)).json() as Record<string, unknown>;
    expect(doc.registration_endpoint).toBe(`${s.url}/oauth/register`);
    const redirect = "http://127.0.0.1:7777/callback";
    const config = await oidc.dynamicClientRegistration(new URL(s.url), { redirect_uris: [redirect], token_endpoint_auth_method: "none", client_name: "Inspector", application_type: "native" }, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const jar = new CookieJar();
    await signUpInto(jar, s.url, "dcr@example.com");
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirect, scope: "openid", code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state: "s" });
    const { callback, consentPage } = await authorizeInBrowser(jar, s.url, url.toString());
    expect(consentPage).toContain("Inspector");
    expect(consentPage).toContain("a program on this computer");
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: "s" });
    expect(tokens.claims()!.aud).toBe(config.clientMetadata().client_id);

    // A client may name its resources' scopes (the MCP SDK registers with those of the server's metadata); OpenID scopes are checked as ever.
    const register = (scope: string) => fetch(`${s.url}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [redirect], token_endpoint_auth_method: "none", application_type: "native", scope }) });
    const withResourceScope = await register("mcp:tools openid");
    expect(withResourceScope.status).toBe(201);
    expect(await withResourceScope.json()).toMatchObject({ scope: "mcp:tools openid" });
    const badScope = await register("mcp:tools bad\\scope");
    expect(badScope.status).toBe(400);
    expect(await badScope.json()).toMatchObject({ error: "invalid_client_metadata" });

    const confidential = await fetch(`${s.url}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: ["https://app.example.com/cb"] }) });
    expect(confidential.status).toBe(400);
    expect(await confidential.json()).toMatchObject({ error: "invalid_client_metadata" });
    const over = await fetch(`${s.url}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [redirect], token_endpoint_auth_method: "none" }) });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

/**
 * What a registering client may say about itself is what a public client may do (finding 3 of issue
 * 45): no client_credentials, so no token without a person; redirect URIs by the operator's rules;
 * and a client stored before those rules cannot use them either.
 */
describe.each(backends)("OAuth dynamic registration is limited to a public client's grants on $name", (backend) => {
  let s: OauthServer;
  beforeAll(async () => {
    s = await startOauthServer(backend, { oauthDynamicRegistration: true, limitOauthRegistrationIp: "off" });
    await createResource(s.app.ctx, { resource: "https://mcp.example.com/mcp", scopes: ["mcp:tools"] }, "test");
  });
  afterAll(async () => { await s?.close(); });

  const register = async (metadata: Record<string, unknown>) => {
    const res = await fetch(`${s.url}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: ["http://127.0.0.1/cb"], token_endpoint_auth_method: "none", application_type: "native", ...metadata }) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const machineToken = (clientId: string) => fetch(`${s.url}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, resource: "https://mcp.example.com/mcp", scope: "mcp:tools" }) });

  it("refuses client_credentials (anonymous machine tokens) and http redirects off loopback, with the reason; a registered client gets no token without a person", async () => {
    const machine = await register({ grant_types: ["client_credentials"], response_types: [] });
    expect(machine).toMatchObject({ status: 400, body: { error: "invalid_client_metadata", error_description: expect.stringContaining("client_credentials is for confidential clients the operator creates") } });
    const mixed = await register({ grant_types: ["authorization_code", "refresh_token", "client_credentials"] });
    expect(mixed.status).toBe(400);
    // An http redirect off loopback (a web client's: the provider lets http through for those), refused as the operator's path refuses it.
    for (const uri of ["http://app.example.com/cb", "http://10.0.0.1/cb"]) {
      expect(await register({ redirect_uris: [uri], application_type: "web" })).toMatchObject({ status: 400, body: { error: "invalid_redirect_uri", error_description: expect.stringContaining("must be on a loopback address") } });
    }
    const ok = await register({ grant_types: ["authorization_code", "refresh_token"] });
    expect(ok.status).toBe(201);
    expect(ok.body.grant_types).toEqual(["authorization_code", "refresh_token"]);
    const refused = await machineToken(ok.body.client_id);
    expect(refused.status).toBe(400);
    expect(["unauthorized_client", "invalid_request"]).toContain(((await refused.json()) as { error: string }).error);
  });

  it("a client stored with client_credentials before these rules cannot get a token without a person, and is not a 500", async () => {
    const ok = await register({});
    const row = await s.app.ctx.store.db.withTables<OauthTables>().selectFrom("oauth_records").select("payload").where("model", "=", "Client").where("id", "=", ok.body.client_id).executeTakeFirstOrThrow();
    const payload = { ...JSON.parse(row.payload), grant_types: ["authorization_code", "client_credentials"] };
    await s.app.ctx.store.db.withTables<OauthTables>().updateTable("oauth_records").set({ payload: JSON.stringify(payload) }).where("model", "=", "Client").where("id", "=", ok.body.client_id).execute();
    const res = await machineToken(ok.body.client_id);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(JSON.stringify(await res.json())).not.toContain("access_token");
  });
});
