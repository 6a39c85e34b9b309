import * as oidc from "openid-client";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, createResource } from "../../src/oauth-provider/clients.js";
import { backends } from "../helpers/backends.js";
import { authorizeInBrowser, CookieJar, signUpInto, startOauthServer, type OauthServer } from "../helpers/oauth.js";

const MCP = "https://mcp.example.com/mcp";
const WEB_REDIRECT = "https://notes.example.com/cb";

/** The OAuth error code a refused request ended in (openid-client's errors carry it as `error`). */
async function errorOf(p: Promise<unknown>): Promise<string> {
  try { await p; } catch (err) {
    const e = err as { error?: string; cause?: Array<{ parameters?: { error?: string } }> };
    return String(e.error ?? (Array.isArray(e.cause) ? e.cause[0]?.parameters?.error : undefined) ?? (err as Error).message);
  }
  throw new Error("expected a refusal");
}

/**
 * authsvc as the authorization server of a relying party that is `openid-client`: discovery, the
 * code flow with PKCE (sign-in through the person's authsvc session, consent on our page), ID token,
 * userinfo, a JWT access token for a registered resource, refresh rotation, revocation, client
 * credentials (introspection: introspection.test.ts). The browser's part is driven over HTTP with a
 * real session cookie.
 */
describe.each(backends)("OAuth provider with openid-client on $name", (backend) => {
  let s: OauthServer;
  let app: { clientId: string; redirect: string };
  let web: { clientId: string; redirect: string };
  let machine: { clientId: string; clientSecret: string };
  beforeAll(async () => {
    s = await startOauthServer(backend);
    await createResource(s.app.ctx, { resource: MCP, name: "Notes MCP", scopes: ["notes:read", "notes:write"] }, "test");
    const redirect = `${s.url}/cb`;
    app = { clientId: (await createClient(s.app.ctx, { name: "Notes app", redirectUris: [redirect], resources: [MCP] }, "test")).clientId, redirect };
    web = { clientId: (await createClient(s.app.ctx, { name: "Notes web", redirectUris: [WEB_REDIRECT] }, "test")).clientId, redirect: WEB_REDIRECT };
    const m = await createClient(s.app.ctx, { name: "Nightly job", type: "confidential", grantTypes: ["client_credentials"], resources: [MCP] }, "test");
    machine = { clientId: m.clientId, clientSecret: m.clientSecret! };
  });
  afterAll(async () => { await s?.close(); });

  const discover = (clientId: string, auth = oidc.None()) => oidc.discovery(new URL(s.url), clientId, undefined, auth, { execute: [oidc.allowInsecureRequests] });

  async function signIn(jar: CookieJar, params: Record<string, string>, client = app) {
    const config = await discover(client.clientId);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: client.redirect, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state, ...params });
    const { callback, consentPage } = await authorizeInBrowser(jar, s.url, url.toString());
    return { config, callback, consentPage, tokens: () => oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }) };
  }

  it("discovery answers at both well-known paths with what MCP and OIDC clients look for", async () => {
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
      const doc = await (await fetch(s.url + path)).json() as Record<string, unknown>;
      expect(doc).toMatchObject({
        issuer: s.url, code_challenge_methods_supported: ["S256"], authorization_response_iss_parameter_supported: true,
        response_types_supported: ["code"], authorization_endpoint: `${s.url}/oauth/authorize`, token_endpoint: `${s.url}/oauth/token`,
      });
      // The OpenID scopes and each registered resource's.
      expect(doc.scopes_supported).toEqual(["openid", "email", "offline_access", "notes:read", "notes:write"]);
      expect(doc.grant_types_supported).not.toContain("implicit");
      expect(doc.grant_types_supported).not.toContain("password");
      expect(doc.registration_endpoint).toBeUndefined();
    }
    const config = await discover(app.clientId);
    expect(config.serverMetadata().issuer).toBe(s.url);
    await createResource(s.app.ctx, { resource: "https://files.example.com/api", scopes: ["files:read"] }, "test");
    const after = await (await fetch(`${s.url}/.well-known/oauth-authorization-server`)).json() as { scopes_supported: string[] };
    expect(after.scopes_supported.slice(0, 3)).toEqual(["openid", "email", "offline_access"]);
    expect(after.scopes_supported.slice(3).sort()).toEqual(["files:read", "notes:read", "notes:write"]);
  });

  it("code + PKCE: consent names the client and its redirect host; ID token with the email, JWT access token for the resource, refresh rotation", async () => {
    const jar = new CookieJar();
    await signUpInto(jar, s.url, "reader@example.com");
    const flow = await signIn(jar, { scope: "openid email offline_access notes:read", resource: MCP, prompt: "consent" });
    expect(flow.consentPage).toContain("Notes app");
    expect(flow.consentPage).toContain(new URL(s.url).host);
    // The resource by its registered name, not its URL.
    expect(flow.consentPage).toContain("Access to: <strong>Notes MCP</strong>");
    expect(flow.consentPage).not.toContain(MCP);
    expect(flow.consentPage).toContain("notes:read");
    expect(flow.consentPage).toContain("a program on this computer");
    expect(flow.callback.searchParams.get("iss")).toBe(s.url);
    const tokens = await flow.tokens();
    const claims = tokens.claims()!;
    expect(claims.iss).toBe(s.url);
    expect(claims.aud).toBe(app.clientId);
    // The access token is the resource's (not userinfo's), so the ID token carries the email itself,
    // and when and how the person signed in: the sign-up's session, with a password (RFC 8176 amr).
    expect(claims).toMatchObject({ email: "reader@example.com", email_verified: true, auth_time: Math.floor(s.clock.now() / 1000), amr: ["pwd"] });
    // The access token: an RFC 9068 JWT for the resource, verifiable by anyone with the JWKS.
    expect(decodeProtectedHeader(tokens.access_token).typ).toBe("at+jwt");
    const jwks = createRemoteJWKSet(new URL(flow.config.serverMetadata().jwks_uri!));
    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: s.url, audience: MCP, typ: "at+jwt" });
    expect(payload).toMatchObject({ sub: claims.sub, client_id: app.clientId, scope: "notes:read" });
    // Rotation: each refresh token works once; the replay of a used one ends the grant.
    const second = await oidc.refreshTokenGrant(flow.config, tokens.refresh_token!);
    expect(second.refresh_token).toBeTruthy();
    expect(second.refresh_token).not.toBe(tokens.refresh_token);
    expect(await errorOf(oidc.refreshTokenGrant(flow.config, tokens.refresh_token!))).toBe("invalid_grant");
    expect(await errorOf(oidc.refreshTokenGrant(flow.config, second.refresh_token!))).toBe("invalid_grant");
  });

  it("a web client's remembered grant skips the consent page; userinfo and revocation", async () => {
    const jar = new CookieJar();
    await signUpInto(jar, s.url, "again@example.com");
    const first = await signIn(jar, { scope: "openid email" }, web);
    expect(first.consentPage).toContain("notes.example.com");
    expect(first.consentPage).not.toContain("a program on this computer");
    await first.tokens();
    const second = await signIn(jar, { scope: "openid email" }, web);
    expect(second.consentPage).toBeUndefined();
    const tokens = await second.tokens();
    const info = await oidc.fetchUserInfo(second.config, tokens.access_token, tokens.claims()!.sub);
    expect(info).toMatchObject({ sub: tokens.claims()!.sub, email: "again@example.com", email_verified: true });
    await oidc.tokenRevocation(second.config, tokens.access_token);
    expect(await errorOf(oidc.fetchUserInfo(second.config, tokens.access_token, tokens.claims()!.sub))).toBe("invalid_token");
  });

  it("client credentials: a machine client gets a JWT for its resource; an unknown resource is invalid_target", async () => {
    const config = await discover(machine.clientId, oidc.ClientSecretBasic(machine.clientSecret));
    const t = await oidc.clientCredentialsGrant(config, { resource: MCP, scope: "notes:read" });
    const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
    const { payload } = await jwtVerify(t.access_token, jwks, { issuer: s.url, audience: MCP });
    expect(payload).toMatchObject({ client_id: machine.clientId, scope: "notes:read" });
    expect(await errorOf(oidc.clientCredentialsGrant(config, { resource: "https://other.example.com/api", scope: "notes:read" }))).toBe("invalid_target");
    // A registered resource the operator did not allow this client: no token without a person for it either.
    await createResource(s.app.ctx, { resource: "https://billing.example.com/api", scopes: ["bills:read"] }, "test");
    expect(await errorOf(oidc.clientCredentialsGrant(config, { resource: "https://billing.example.com/api", scope: "bills:read" }))).toBe("invalid_target");
    const wrong = await discover(machine.clientId, oidc.ClientSecretBasic("cs_not-the-secret"));
    expect(await errorOf(oidc.clientCredentialsGrant(wrong, { resource: MCP }))).toBe("invalid_client");
  });
});
