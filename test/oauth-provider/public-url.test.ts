import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/oauth-provider/clients.js";
import { backends } from "../helpers/backends.js";
import { credentials } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const PUBLIC = "https://auth.example.com";
/** What an attacker (or a proxy that passes the client's headers on) sends in front of every request. */
const FOREIGN = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http", forwarded: "host=evil.example;proto=http" };
const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

interface Answer { status: number; location?: string; cookies: string[]; body: string }

/** One request over the real listener with the foreign Host and X-Forwarded-* (fetch would not let a test set Host). */
function send(t: TestApp, method: string, path: string, opts: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const { port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers: { ...FOREIGN, ...opts.headers } }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (c) => { body += c; }).on("end", () => resolve({ status: res.statusCode!, location: res.headers.location, cookies: res.headers["set-cookie"] ?? [], body }));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** Every absolute URL anywhere in a JSON document. */
const urlsIn = (doc: unknown): string[] => JSON.stringify(doc).match(/https?:\/\/[^"]+/g) ?? [];

/**
 * In production behind a proxy, every URL the OAuth provider publishes or redirects to comes from
 * --public-url: a request with a foreign Host and X-Forwarded-Host/-Proto gets the public URL's
 * https:// host in both discovery documents (endpoints, jwks_uri), the kernel's OpenID document,
 * the redirect to the interaction, the redirect to the hosted sign-in, the resume after it, and a
 * registration's client URI; never evil.example, never http://.
 */
describe.each(backends)("the OAuth provider's URLs come from --public-url on $name", (backend) => {
  let t: TestApp;
  let clientId = "";
  beforeAll(async () => {
    t = await createTestApp({ backend, config: { mode: "production", publicUrl: PUBLIC, websiteUrl: "https://app.example.com", hostedPages: true, oauthDynamicRegistration: true, secret: "a server secret that is long enough for tests 0123456789" } });
    clientId = (await createClient(t.app.ctx, { name: "Notes web", redirectUris: ["https://app.example.com/cb"] }, "test")).clientId;
  });
  afterAll(async () => { await t?.close(); });

  const ours = (urls: string[]) => {
    expect(urls.length).toBeGreaterThan(0);
    for (const u of urls) expect(u === PUBLIC || u.startsWith(`${PUBLIC}/`), u).toBe(true);
  };

  it("both discovery documents and the kernel's OpenID document name only the public URL", async () => {
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
      const r = await send(t, "GET", path);
      expect(r.status).toBe(200);
      const doc = JSON.parse(r.body) as Record<string, string>;
      expect(doc.issuer).toBe(PUBLIC);
      for (const k of ["authorization_endpoint", "token_endpoint", "jwks_uri", "userinfo_endpoint", "introspection_endpoint", "revocation_endpoint", "registration_endpoint"]) expect(doc[k], k).toMatch(new RegExp(`^${PUBLIC}/oauth/`));
      ours(urlsIn(doc));
    }
    const kernel = await send(t, "GET", "/auth/.well-known/openid-configuration");
    expect(JSON.parse(kernel.body)).toMatchObject({ issuer: `${PUBLIC}/auth`, jwks_uri: `${PUBLIC}/auth/jwt/jwks.json` });
    expect((await send(t, "GET", "/oauth/jwks")).status).toBe(200);
  });

  it("the authorization's redirects (to the interaction, to the hosted sign-in, back after it) and an error's iss are on the public URL", async () => {
    const query = new URLSearchParams({ client_id: clientId, response_type: "code", redirect_uri: "https://app.example.com/cb", scope: "openid", state: "s", code_challenge: CHALLENGE, code_challenge_method: "S256" });
    const start = await send(t, "GET", `/oauth/authorize?${query}`);
    expect(start.status).toBe(303);
    expect(start.location).toMatch(new RegExp(`^${PUBLIC}/oauth/interaction/`));
    const cookie = start.cookies.map((c) => c.split(";")[0]).join("; ");
    const interaction = new URL(start.location!).pathname;

    const toSignIn = await send(t, "GET", interaction, { headers: { cookie } });
    expect(toSignIn.status).toBe(303);
    expect(toSignIn.location).toBe(`${PUBLIC}/auth?redirectToPath=${encodeURIComponent(interaction)}`);

    // Signed in (the API's cookie): the interaction finishes and sends the browser back to the provider.
    const up = await send(t, "POST", "/auth/signup", { headers: { "content-type": "application/json" }, body: JSON.stringify(credentials("public-url@example.com")) });
    expect(up.status).toBe(200);
    const session = up.cookies.map((c) => c.split(";")[0]).filter((c) => c.startsWith("sAccessToken=")).join("");
    const resumed = await send(t, "GET", interaction, { headers: { cookie: `${cookie}; ${session}` } });
    expect(resumed.status).toBe(303);
    expect(resumed.location).toMatch(new RegExp(`^${PUBLIC}/oauth/`));

    const refused = await send(t, "GET", `/oauth/authorize?${query}&resource=https%3A%2F%2Funknown.example.com%2Fapi`);
    expect(new URL(refused.location!).searchParams.get("iss")).toBe(PUBLIC);
  });

  it("a registration's client URI is on the public URL", async () => {
    const r = await send(t, "POST", "/oauth/register", { headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: ["http://127.0.0.1/cb"], token_endpoint_auth_method: "none", application_type: "native" }) });
    expect(r.status).toBe(201);
    expect(JSON.parse(r.body).registration_client_uri).toMatch(new RegExp(`^${PUBLIC}/oauth/`));
  });
});
