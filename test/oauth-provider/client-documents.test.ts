import * as oidc from "openid-client";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHE_DEFAULT_MS, CACHE_MAX_MS, CACHE_MIN_MS, cacheLifetimeMs } from "../../src/oauth-provider/client-documents.js";
import { createResource } from "../../src/oauth-provider/clients.js";
import { isAllowedAddress } from "../../src/oauth-provider/guarded-fetch.js";
import { backends } from "../helpers/backends.js";
import { startDocumentServer, type DocumentServer } from "../helpers/document-server.js";
import { authorizeInBrowser, CookieJar, signUpInto, startOauthServer, type OauthServer } from "../helpers/oauth.js";

const MCP = "https://mcp.example.com/mcp";
const REDIRECT = "http://127.0.0.1:7777/callback";
const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

/** A client's metadata document for its own URL. */
const doc = (clientId: string, extra: Record<string, unknown> = {}) => ({
  client_id: clientId, client_name: "Local MCP client", redirect_uris: [REDIRECT],
  grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none", ...extra,
});

/** An authorization request as a client sends it (no cookies): the answer the provider gives before any sign-in. */
async function authorize(base: string, clientId: string, params: Record<string, string> = {}) {
  const u = new URL(`${base}/oauth/authorize`);
  for (const [k, v] of Object.entries({ client_id: clientId, response_type: "code", redirect_uri: REDIRECT, scope: "openid", state: "st", code_challenge: challenge, code_challenge_method: "S256", ...params })) if (v !== "") u.searchParams.set(k, v);
  return fetch(u, { redirect: "manual" });
}
/** The provider's refusal of a client: status, the protocol's error and its description (JSON from the token endpoint, the error page from authorize). */
async function refusal(res: Response) {
  const text = await res.text();
  if (text.startsWith("{")) {
    const body = JSON.parse(text) as { error: string; error_description: string };
    return { status: res.status, error: body.error, description: body.error_description };
  }
  const m = /<p>([a-z_]+): (.*?)<\/p>/s.exec(text);
  const unescape = (t: string) => t.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  return { status: res.status, error: m?.[1], description: unescape(m?.[2] ?? text) };
}

/**
 * Client ID metadata documents in development (the public URL is loopback, so documents on loopback
 * over http are allowed): a real client's document served by a real HTTP server, used by openid-client
 * through sign-in, consent, tokens and refresh; and what the fetch refuses (size, time, redirects,
 * a document that lies about its id or wants a secret), its cache and its negative cache.
 */
describe.each(backends)("OAuth client metadata documents on $name", (backend) => {
  let s: OauthServer;
  let docs: DocumentServer;
  beforeAll(async () => {
    docs = await startDocumentServer();
    s = await startOauthServer(backend, { oauthClientMetadataTimeoutMs: 1000, oauthClientMetadataHosts: ["127.0.0.1"] });
    await createResource(s.app.ctx, { resource: MCP, name: "Notes MCP", scopes: ["notes:read"] }, "test");
  });
  afterAll(async () => { await s?.close(); await docs?.close(); });

  it("discovery says documents are supported; a client named by its document signs a person in with PKCE and gets a JWT for the resource and a rotating refresh token", async () => {
    const meta = await (await fetch(`${s.url}/.well-known/oauth-authorization-server`)).json() as Record<string, unknown>;
    expect(meta.client_id_metadata_document_supported).toBe(true);
    const clientId = docs.set("/happy/client.json", { json: {} });
    docs.set("/happy/client.json", { json: doc(clientId) });
    const config = await oidc.discovery(new URL(s.url), clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const jar = new CookieJar();
    await signUpInto(jar, s.url, "cimd@example.com");
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "openid offline_access notes:read", resource: MCP, prompt: "consent", code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state: "s" });
    const { callback, consentPage } = await authorizeInBrowser(jar, s.url, url.toString());
    expect(consentPage).toContain("Local MCP client");
    expect(consentPage).toContain(`Its name is given by <strong>${new URL(docs.origin).host}</strong>`);
    expect(consentPage).toContain("a program on this computer");
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: "s" });
    const { payload } = await jwtVerify(tokens.access_token, createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!)), { issuer: s.url, audience: MCP });
    expect(payload.client_id).toBe(clientId);
    const next = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    // One fetch served the whole flow (authorize, consent, token, refresh): the document is cached.
    expect(docs.hits("/happy/client.json")).toBe(1);
  });

  it("a document client must use PKCE and its own redirect URIs, like any public client", async () => {
    const clientId = docs.set("/pkce/client.json", { json: {} });
    docs.set("/pkce/client.json", { json: doc(clientId) });
    const noPkce = await authorize(s.url, clientId, { code_challenge: "", code_challenge_method: "" });
    expect(new URL(noPkce.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");
    const wrong = await authorize(s.url, clientId, { redirect_uri: "https://evil.example.com/cb" });
    expect(wrong.status).toBe(400);
    expect(wrong.headers.get("location")).toBeNull();
  });

  it("refuses, as invalid_client with the reason, a document too large, too slow, behind a redirect, for another id, with a secret; and hosts off the allow-list", async () => {
    const big = docs.set("/big.json", { json: {} });
    docs.set("/big.json", { json: doc(big, { client_uri: `https://example.com/${"x".repeat(6000)}` }) });
    expect(await refusal(await authorize(s.url, big))).toMatchObject({ status: 400, error: "invalid_client", description: expect.stringContaining("larger than 5120 bytes") });
    const slow = docs.set("/slow.json", { hang: true });
    expect(await refusal(await authorize(s.url, slow))).toMatchObject({ error: "invalid_client", description: expect.stringContaining("did not arrive within 1000 ms") });
    const moved = docs.set("/moved.json", { status: 302, headers: { location: big } });
    expect(await refusal(await authorize(s.url, moved))).toMatchObject({ error: "invalid_client", description: expect.stringContaining("redirects are not followed") });
    const liar = docs.set("/liar.json", { json: doc(`${docs.origin}/someone-else.json`) });
    expect(await refusal(await authorize(s.url, liar))).toMatchObject({ error: "invalid_client", description: expect.stringContaining("must equal the URL") });
    const secret = docs.set("/secret.json", { json: {} });
    docs.set("/secret.json", { json: doc(secret, { token_endpoint_auth_method: "client_secret_basic" }) });
    expect(await refusal(await authorize(s.url, secret))).toMatchObject({ error: "invalid_client", description: expect.stringContaining("must be none") });
    // A document describes a public client: no token without a person (client_credentials), no http redirect off loopback.
    const machine = docs.set("/machine.json", { json: {} });
    docs.set("/machine.json", { json: doc(machine, { grant_types: ["authorization_code", "client_credentials"] }) });
    expect(await refusal(await authorize(s.url, machine))).toMatchObject({ error: "invalid_client", description: expect.stringContaining("client_credentials is for confidential clients the operator creates") });
    const web = docs.set("/web.json", { json: {} });
    docs.set("/web.json", { json: doc(web, { redirect_uris: ["http://app.example.com/cb"] }) });
    expect(await refusal(await authorize(s.url, web))).toMatchObject({ error: "invalid_client", description: expect.stringContaining("loopback") });
    const other = docs.origin.replace("127.0.0.1", "localhost") + "/client.json";
    expect(await refusal(await authorize(s.url, other))).toMatchObject({ error: "invalid_client", description: expect.stringContaining("not accepted by this server") });
    // At the token endpoint too: the protocol's error, never a 500.
    const token = await fetch(`${s.url}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "authorization_code", code: "x", redirect_uri: REDIRECT, client_id: big, code_verifier: "v".repeat(43) }) });
    expect(await refusal(token)).toMatchObject({ status: 400, error: "invalid_client", description: expect.stringContaining("larger than") });
  });

  it("a document is used for its max-age (within bounds); a refusal is remembered for 30 seconds", async () => {
    const clientId = docs.set("/cached.json", { json: {} });
    docs.set("/cached.json", { json: doc(clientId), headers: { "cache-control": "max-age=120" } });
    expect((await authorize(s.url, clientId)).status).toBe(303);
    const moved = "http://127.0.0.1:8888/new-callback";
    docs.set("/cached.json", { json: doc(clientId, { redirect_uris: [moved] }), headers: { "cache-control": "max-age=120" } });
    expect((await authorize(s.url, clientId)).status).toBe(303);
    expect(docs.hits("/cached.json")).toBe(1);
    s.clock.advance(121_000);
    expect((await authorize(s.url, clientId)).status).toBe(400);
    expect((await authorize(s.url, clientId, { redirect_uri: moved })).status).toBe(303);
    expect(docs.hits("/cached.json")).toBe(2);

    const late = `${docs.origin}/late.json`;
    expect((await refusal(await authorize(s.url, late))).description).toContain("answered 404");
    docs.set("/late.json", { json: doc(late) });
    expect((await authorize(s.url, late)).status).toBe(400);
    s.clock.advance(31_000);
    expect((await authorize(s.url, late)).status).toBe(303);
    expect(docs.hits("/late.json")).toBe(2);
  });
});

/**
 * In production (a public URL that is not loopback) the URL itself is checked first: https only,
 * with a path, no credentials or dot segments, no private, loopback or link-local address literal;
 * a host name is checked at connect time against every address it resolves to. The setting that
 * turns documents off, and the fetch budget per client IP, answered 429.
 */
describe.each(backends)("OAuth client metadata documents in production on $name", (backend) => {
  let s: OauthServer;
  let docs: DocumentServer;
  beforeAll(async () => {
    docs = await startDocumentServer();
    s = await startOauthServer(backend, { publicUrl: "https://auth.example.test", limitOauthClientDocumentIp: "1/15m" });
  });
  afterAll(async () => { await s?.close(); await docs?.close(); });

  it("refuses documents on private addresses, over http, without a path, with credentials or dot segments", async () => {
    const cases: Array<[string, string]> = [
      ["http://app.example.com/client.json", "must use https"],
      ["https://app.example.com", "must have a path"],
      ["https://app.example.com/", "must have a path"],
      ["https://user:pw@app.example.com/client.json", "credentials"],
      ["https://app.example.com/a/../client.json", ". or .. path segments"],
      ["https://10.0.0.7/client.json", "private, loopback or link-local"],
      ["https://169.254.169.254/latest/meta-data", "private, loopback or link-local"],
      ["https://[::1]/client.json", "private, loopback or link-local"],
      ["https://[::ffff:7f00:1]/client.json", "private, loopback or link-local"],
      [`${docs.origin}/client.json`, "must use https"],
    ];
    for (const [clientId, reason] of cases) {
      expect(await refusal(await authorize(s.url, clientId)), clientId).toMatchObject({ error: "invalid_client", description: expect.stringContaining(reason) });
    }
  });

  it("a host name that resolves to loopback is refused when connecting; the fetch budget per client IP answers 429", async () => {
    const clientId = docs.set("/client.json", { json: {} }).replace("http://127.0.0.1", "https://localhost");
    expect(await refusal(await authorize(s.url, clientId))).toMatchObject({ error: "invalid_client", description: expect.stringContaining("localhost resolves to a private, loopback or link-local address") });
    expect(docs.hits("/client.json")).toBe(0);
    const over = await authorize(s.url, "https://localhost:1/other.json");
    expect(await refusal(over)).toMatchObject({ status: 429, error: "temporarily_unavailable" });
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe.each(backends)("OAuth client metadata documents turned off on $name", (backend) => {
  let s: OauthServer;
  beforeAll(async () => { s = await startOauthServer(backend, { oauthClientMetadataDocuments: false }); });
  afterAll(async () => { await s?.close(); });

  it("discovery says so and a URL client_id is invalid_client", async () => {
    const meta = await (await fetch(`${s.url}/.well-known/openid-configuration`)).json() as Record<string, unknown>;
    expect(meta.client_id_metadata_document_supported).toBe(false);
    expect(await refusal(await authorize(s.url, "https://app.example.com/client.json"))).toMatchObject({ error: "invalid_client", description: expect.stringContaining("not accepted") });
  });
});

describe("the client document guard's rules", () => {
  it("lets only public unicast addresses through (loopback in development), whatever the notation", () => {
    const refused = ["10.1.2.3", "172.16.0.1", "192.168.1.1", "127.0.0.1", "0.0.0.0", "169.254.169.254", "100.100.100.200", "100.64.0.1", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "fd00:ec2::254", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "64:ff9b::a00:1", "2002:0a00:0001::1", "not-an-address"];
    for (const a of refused) expect(isAllowedAddress(a, { allowLoopback: false }), a).toBe(false);
    for (const a of ["93.184.215.14", "2606:4700::6810:84e5", "::ffff:93.184.215.14"]) expect(isAllowedAddress(a, { allowLoopback: false }), a).toBe(true);
    expect(isAllowedAddress("127.0.0.1", { allowLoopback: true })).toBe(true);
    expect(isAllowedAddress("10.1.2.3", { allowLoopback: true })).toBe(false);
  });

  it("caches for the document's max-age or Expires, never under a minute or over a day", () => {
    expect(cacheLifetimeMs({ cacheControl: "public, max-age=600" })).toBe(600_000);
    expect(cacheLifetimeMs({ cacheControl: "max-age=1" })).toBe(CACHE_MIN_MS);
    expect(cacheLifetimeMs({ cacheControl: "no-store" })).toBe(CACHE_MIN_MS);
    expect(cacheLifetimeMs({ cacheControl: "max-age=31536000" })).toBe(CACHE_MAX_MS);
    expect(cacheLifetimeMs({ expires: "Fri, 27 Nov 2026 11:00:00 GMT", date: "Fri, 27 Nov 2026 10:50:00 GMT" })).toBe(600_000);
    expect(cacheLifetimeMs({})).toBe(CACHE_DEFAULT_MS);
  });
});
