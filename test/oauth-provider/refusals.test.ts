import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, createResource } from "../../src/oauth-provider/clients.js";
import { backends } from "../helpers/backends.js";
import { authorizeInBrowser, browse, CookieJar, signUpInto, startOauthServer, type OauthServer } from "../helpers/oauth.js";

const MCP = "https://mcp.example.com/mcp";
const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"; // S256 of the RFC 7636 example verifier

/**
 * What the provider refuses, with the spec's error: no PKCE, plain PKCE, a redirect URI not
 * registered, an unknown resource, a code used twice, registration while it is off. And where a
 * person without a session is sent: the hosted sign-in page, which brings them back.
 */
describe.each(backends)("OAuth provider refusals on $name", (backend) => {
  let s: OauthServer;
  let clientId: string;
  let redirect: string;
  beforeAll(async () => {
    s = await startOauthServer(backend);
    await createResource(s.app.ctx, { resource: MCP, scopes: ["notes:read"] }, "test");
    redirect = `${s.url}/cb`;
    clientId = (await createClient(s.app.ctx, { name: "Native app", redirectUris: [redirect], resources: [MCP] }, "test")).clientId;
  });
  afterAll(async () => { await s?.close(); });

  const authorize = (params: Record<string, string>) => {
    const u = new URL(`${s.url}/oauth/authorize`);
    for (const [k, v] of Object.entries({ client_id: clientId, response_type: "code", redirect_uri: redirect, scope: "openid", state: "st", code_challenge: challenge, code_challenge_method: "S256", ...params })) if (v !== "") u.searchParams.set(k, v);
    return fetch(u, { redirect: "manual" });
  };
  /** The error a refusal sent back to the client's redirect URI, with its iss (RFC 9207). */
  const redirected = async (res: Response) => {
    expect(res.status).toBe(303);
    const to = new URL(res.headers.get("location")!);
    expect(to.origin + to.pathname).toBe(redirect);
    return { error: to.searchParams.get("error"), iss: to.searchParams.get("iss"), state: to.searchParams.get("state") };
  };

  it("no PKCE, plain PKCE and an unknown resource go back to the client as errors with iss", async () => {
    expect(await redirected(await authorize({ code_challenge: "", code_challenge_method: "" }))).toEqual({ error: "invalid_request", iss: s.url, state: "st" });
    expect(await redirected(await authorize({ code_challenge_method: "plain", code_challenge: "a".repeat(43) }))).toEqual({ error: "invalid_request", iss: s.url, state: "st" });
    expect(await redirected(await authorize({ resource: "https://unknown.example.com/api" }))).toEqual({ error: "invalid_target", iss: s.url, state: "st" });
  });

  it("a redirect URI that is not registered is refused on the page, never followed; a loopback one may use any port", async () => {
    const wrong = await authorize({ redirect_uri: "https://evil.example.com/cb" });
    expect(wrong.status).toBe(400);
    expect(wrong.headers.get("location")).toBeNull();
    expect(await wrong.text()).toContain("redirect_uri");
    const otherPort = await authorize({ redirect_uri: "http://127.0.0.1:1/cb" });
    expect(otherPort.status).toBe(303);
    expect(otherPort.headers.get("location")).toMatch(/\/oauth\/interaction\//);
  });

  it("without an authsvc session the person is sent to the hosted sign-in page, which may bring them back", async () => {
    const jar = new CookieJar();
    const first = await browse(jar, (await authorize({})).url);
    const interaction = new URL(first.headers.get("location")!, s.url);
    const page = await browse(jar, interaction.toString());
    expect(page.status).toBe(303);
    const signIn = new URL(page.headers.get("location")!, s.url);
    expect(signIn.pathname).toBe("/auth");
    expect(signIn.searchParams.get("redirectToPath")).toBe(interaction.pathname);
    const html = await (await fetch(signIn)).text();
    expect(html).toContain("/oauth/interaction/*");
  });

  it("a code is good once: the second exchange is invalid_grant", async () => {
    const jar = new CookieJar();
    await signUpInto(jar, s.url, "once@example.com");
    const config = await oidc.discovery(new URL(s.url), clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirect, scope: "openid", code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state: "x" });
    const { callback } = await authorizeInBrowser(jar, s.url, url.toString());
    await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: "x" });
    const again = await fetch(`${s.url}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "authorization_code", code: callback.searchParams.get("code")!, redirect_uri: redirect, client_id: clientId, code_verifier: verifier }) });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("the consent page refuses a POST from another origin; Deny sends access_denied", async () => {
    const jar = new CookieJar();
    await signUpInto(jar, s.url, "deny@example.com");
    const res = await browse(jar, (await authorize({})).url);
    let url = new URL(res.headers.get("location")!, s.url).toString();
    for (let i = 0; i < 4 && !(await browse(jar, url).then((r) => { if (r.status === 200) return true; url = new URL(r.headers.get("location")!, url).toString(); return false; })); i++);
    // The consent page, and its refusals, in the browser's language.
    const consentDe = await (await browse(jar, url, { headers: { "accept-language": "de-DE,de;q=0.9" } })).text();
    expect(consentDe).toContain('<html lang="de" dir="ltr">');
    expect(consentDe).toMatch(/<h1 id="consent-title">.* erlauben\?<\/h1>/);
    expect(consentDe).toContain(">Ablehnen</button>");
    const foreign = await browse(jar, `${url}/confirm`, { method: "POST", headers: { origin: "https://evil.example.com", "accept-language": "de" } });
    expect(foreign.status).toBe(403);
    const refusal = await foreign.text();
    expect(refusal).toContain('<html lang="de" dir="ltr">');
    expect(refusal).toContain("<h1>Hier geht es nicht weiter</h1><p>Diese Anfrage kam nicht von der Zustimmungsseite.</p>");
    // A browser says where a form came from (Sec-Fetch-Site); with our pages' no-referrer policy its Origin is "null".
    const crossSite = await browse(jar, `${url}/confirm`, { method: "POST", headers: { origin: "null", "sec-fetch-site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    const denied = await browse(jar, `${url}/abort`, { method: "POST", headers: { origin: s.url } });
    const back = await browse(jar, new URL(denied.headers.get("location")!, url).toString());
    expect(await redirected(back)).toMatchObject({ error: "access_denied", iss: s.url });
  });

  it("registration is off by default: no endpoint in the metadata and none to call", async () => {
    const doc = await (await fetch(`${s.url}/.well-known/oauth-authorization-server`)).json() as Record<string, unknown>;
    expect(doc.registration_endpoint).toBeUndefined();
    const res = await fetch(`${s.url}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: ["http://127.0.0.1/cb"], token_endpoint_auth_method: "none" }) });
    expect(res.status).toBe(404);
  });
});
