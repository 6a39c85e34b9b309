import { generateKeyPair, SignJWT } from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, createResource } from "../../src/oauth-provider/clients.js";
import { backends } from "../helpers/backends.js";
import { authorizeInBrowser, browse, CookieJar, signUpInto, startOauthServer, type OauthServer } from "../helpers/oauth.js";
import { introspect, MCP } from "../helpers/ways-in.js";

const OTHER = "https://files.example.com/api";
type Client = { clientId: string; clientSecret?: string };

/**
 * Introspection (RFC 7662) as a client and a resource server meet it: a public client, which proves
 * nothing, gets 401 invalid_client; a confidential client hears about its own tokens, JWT access
 * tokens included; a resource server about the tokens for the resource the operator allowed it, and
 * about no other; a token whose grant ended, or one authsvc did not issue, is inactive.
 */
describe.each(backends)("OAuth token introspection on $name", (backend) => {
  let s: OauthServer;
  let app: Client, pub: Client, rs: Client, otherRs: Client, machine: Client;
  beforeAll(async () => {
    s = await startOauthServer(backend);
    await createResource(s.app.ctx, { resource: MCP, scopes: ["notes:read"] }, "test");
    await createResource(s.app.ctx, { resource: OTHER, scopes: ["files:read"] }, "test");
    const make = async (input: Parameters<typeof createClient>[1]) => {
      const c = await createClient(s.app.ctx, input, "test");
      return { clientId: c.clientId, clientSecret: c.clientSecret };
    };
    app = await make({ name: "Notes web", type: "confidential", redirectUris: [`${s.url}/cb`], resources: [MCP] });
    pub = await make({ name: "Notes desktop", redirectUris: [`${s.url}/cb`], resources: [MCP] });
    rs = await make({ name: "Notes MCP server", type: "confidential", grantTypes: ["client_credentials"], resources: [MCP] });
    otherRs = await make({ name: "Files API", type: "confidential", grantTypes: ["client_credentials"], resources: [OTHER] });
    machine = await make({ name: "Nightly job", type: "confidential", grantTypes: ["client_credentials"], resources: [MCP] });
  });
  afterAll(async () => { await s?.close(); });

  /** A person's tokens for MCP through `client` (authorization code with consent). */
  async function personTokens(client: Client, email: string, jar = new CookieJar()) {
    await signUpInto(jar, s.url, email);
    const auth = client.clientSecret ? oidc.ClientSecretBasic(client.clientSecret) : oidc.None();
    const config = await oidc.discovery(new URL(s.url), client.clientId, undefined, auth, { execute: [oidc.allowInsecureRequests] });
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: `${s.url}/cb`, scope: "openid offline_access notes:read", resource: MCP, prompt: "consent", code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state: "st" });
    const { callback } = await authorizeInBrowser(jar, s.url, url.toString());
    return { jar, tokens: await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: "st" }) };
  }
  const machineToken = async () => {
    const res = await fetch(`${s.url}/oauth/token`, { method: "POST", headers: { authorization: `Basic ${Buffer.from(`${machine.clientId}:${machine.clientSecret}`).toString("base64")}`, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "client_credentials", resource: MCP, scope: "notes:read" }) });
    return ((await res.json()) as { access_token: string }).access_token;
  };

  it("a public client gets 401 invalid_client, whatever the token, its own included", async () => {
    const { tokens } = await personTokens(pub, "public-intro@example.com");
    for (const token of [tokens.access_token, tokens.refresh_token!, "not-a-token"]) {
      const r = await introspect(s, { clientId: pub.clientId }, token);
      expect(r).toMatchObject({ status: 401, error: "invalid_client" });
      expect(r.active).toBeUndefined();
    }
    expect(await introspect(s, { clientId: pub.clientId, clientSecret: "made-up" }, tokens.access_token)).toMatchObject({ status: 401, error: "invalid_client" });
  });

  it("a live JWT access token asked about by its own confidential client is active, with its person, client, audience and scope; so is its refresh token", async () => {
    const { tokens } = await personTokens(app, "own-intro@example.com");
    const sub = tokens.claims()!.sub;
    const jwt = await introspect(s, app, tokens.access_token);
    expect(jwt).toMatchObject({ status: 200, active: true, sub, client_id: app.clientId, aud: MCP, scope: "notes:read", iss: s.url, token_type: "Bearer" });
    expect(jwt.exp).toEqual(expect.any(Number));
    expect(jwt.grant_id).toBeUndefined();
    expect(await introspect(s, app, tokens.refresh_token!)).toMatchObject({ status: 200, active: true, sub, client_id: app.clientId });
  });

  it("a resource server hears about the tokens for its resource; another one, about none of them", async () => {
    const { tokens } = await personTokens(pub, "rs-intro@example.com");
    expect(await introspect(s, rs, tokens.access_token)).toMatchObject({ active: true, client_id: pub.clientId, aud: MCP });
    expect(await introspect(s, otherRs, tokens.access_token)).toEqual({ status: 200, active: false });
    // A refresh token has no audience: only its own client may ask.
    expect(await introspect(s, rs, tokens.refresh_token!)).toEqual({ status: 200, active: false });
    const cc = await machineToken();
    expect(await introspect(s, machine, cc)).toMatchObject({ active: true, client_id: machine.clientId, aud: MCP });
    expect((await introspect(s, machine, cc)).sub).toBeUndefined();
    expect(await introspect(s, rs, cc)).toMatchObject({ active: true, client_id: machine.clientId });
    expect(await introspect(s, otherRs, cc)).toEqual({ status: 200, active: false });
  });

  it("a JWT whose grant ended is inactive at once; a JWT authsvc did not sign, or one of its session tokens, is inactive", async () => {
    const { jar, tokens } = await personTokens(app, "ended-intro@example.com");
    expect((await introspect(s, app, tokens.access_token)).active).toBe(true);
    const apps = (await (await browse(jar, `${s.url}/auth/account/connected-apps`)).json()) as { apps: Array<{ grantId: string }> };
    const revoked = await browse(jar, `${s.url}/auth/account/connected-apps/revoke`, { method: "POST", headers: { "content-type": "application/json", rid: "session" }, body: JSON.stringify({ grantId: apps.apps[0].grantId }) });
    expect(revoked.status).toBe(200);
    expect(await introspect(s, app, tokens.access_token)).toEqual({ status: 200, active: false });
    expect(await introspect(s, rs, tokens.access_token)).toEqual({ status: 200, active: false });

    const { privateKey } = await generateKeyPair("RS256");
    const header = JSON.parse(Buffer.from(tokens.access_token.split(".")[0], "base64url").toString());
    const forged = await new SignJWT({ client_id: app.clientId, scope: "notes:read", grant_id: "x" }).setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: header.kid })
      .setIssuer(s.url).setSubject("someone").setAudience(MCP).setIssuedAt().setExpirationTime("5m").setJti("j").sign(privateKey);
    expect(await introspect(s, app, forged)).toEqual({ status: 200, active: false });
    const session = jar.values.get("sAccessToken")!;
    expect(await introspect(s, app, decodeURIComponent(session))).toEqual({ status: 200, active: false });
  });
});
