import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
