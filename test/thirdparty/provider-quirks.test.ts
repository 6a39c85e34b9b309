import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

// With a query of its own: the token request must carry it exactly as registered.
const REDIRECT_URI = "http://localhost:3000/auth/callback/github?app=web";

/**
 * Providers that are not a textbook OpenID provider, on 127.0.0.1: GitHub's OAuth2 shapes (a
 * form-encoded token answer, errors with HTTP 200, ids in `id`, the address in /user/emails), a
 * discovery document naming another issuer, and one too large to read.
 */
async function startQuirkyProvider() {
  const seen: Array<{ url: string; headers: IncomingMessage["headers"]; body: string }> = [];
  const server: Server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    seen.push({ url: req.url!, headers: req.headers, body });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.url === "/login/oauth/access_token") {
      const code = new URLSearchParams(body).get("code");
      res.writeHead(200, { "content-type": "application/x-www-form-urlencoded" });
      res.end(code === "good-code" ? "access_token=gho_token&scope=read%3Auser&token_type=bearer" : "error=bad_verification_code&error_description=The+code+is+incorrect");
    } else if (req.url === "/user") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: 4242, login: "octo", email: "public@example.com" }));
    } else if (req.url === "/user/emails") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify([{ email: "Octo@Example.com", primary: true, verified: true }, { email: "public@example.com", primary: false, verified: false }]));
    } else if (req.url === "/mixup/.well-known/openid-configuration") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ issuer: "https://elsewhere.example", authorization_endpoint: `${base}/a`, token_endpoint: `${base}/t`, jwks_uri: `${base}/j` }));
    } else if (req.url === "/huge/.well-known/openid-configuration") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ issuer: `${base}/huge`, padding: "x".repeat(2 * 1024 * 1024) }));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, seen, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

describe.each(backends)("providers that are not textbook OpenID providers ($name)", (backend) => {
  let p: Awaited<ReturnType<typeof startQuirkyProvider>>;
  let t: TestApp;
  beforeAll(async () => {
    p = await startQuirkyProvider();
    t = await createTestApp({
      backend,
      config: {
        providers: [
          { thirdPartyId: "github", clientId: "gh-client", clientSecret: "gh-secret-value", authorizationEndpoint: `${p.base}/login/oauth/authorize`, tokenEndpoint: `${p.base}/login/oauth/access_token`, userInfoEndpoint: `${p.base}/user` },
          { thirdPartyId: "mixup", oidcDiscoveryEndpoint: `${p.base}/mixup/.well-known/openid-configuration`, clientId: "x", clientSecret: "y" },
          { thirdPartyId: "huge", oidcDiscoveryEndpoint: `${p.base}/huge/.well-known/openid-configuration`, clientId: "x", clientSecret: "y" },
        ],
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await p?.close();
  });

  const signIn = async (code: string) => {
    const res = await fetch(`${t.url}/auth/signinup`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ thirdPartyId: "github", redirectURIInfo: { redirectURIOnProviderDashboard: REDIRECT_URI, redirectURIQueryParams: { code, state: "frontend-state" } } }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it("signs in through GitHub's shapes: form-encoded token answer, numeric id, primary verified address from /user/emails", async () => {
    const r = await signIn("good-code");
    expect(r).toMatchObject({ status: 200, body: { status: "OK", createdNewRecipeUser: true, user: { email: "octo@example.com", thirdParty: [{ id: "github", userId: "4242" }], loginMethods: [{ verified: true }] } } });
    const token = p.seen.find((s) => s.url === "/login/oauth/access_token")!;
    expect(Object.fromEntries(new URLSearchParams(token.body))).toMatchObject({ grant_type: "authorization_code", code: "good-code", redirect_uri: REDIRECT_URI, client_id: "gh-client", client_secret: "gh-secret-value" });
    const user = p.seen.find((s) => s.url === "/user")!;
    expect(user.headers).toMatchObject({ authorization: "Bearer gho_token", accept: "application/vnd.github+json", "user-agent": "authsvc" });
  });

  it("answers GitHub's HTTP 200 error as a rejected code (400), creating nobody", async () => {
    const r = await signIn("stale-code");
    expect(r).toMatchObject({ status: 400, body: { message: "The provider github rejected the authorization code (bad_verification_code)" } });
    expect(JSON.stringify(r.body)).not.toContain("gh-secret-value");
  });

  it("refuses a discovery document that names another issuer, and one too large to read (502 naming the provider)", async () => {
    const url = (id: string) => fetch(`${t.url}/auth/authorisationurl?thirdPartyId=${id}&redirectURIOnProviderDashboard=${encodeURIComponent(REDIRECT_URI)}`).then(async (r) => ({ status: r.status, body: await r.json() }));
    expect(await url("mixup")).toEqual({ status: 502, body: { message: "The provider mixup published an invalid issuer in its discovery document" } });
    expect(await url("huge")).toEqual({ status: 502, body: { message: "The provider huge sent an oversized response from its discovery endpoint" } });
  });
});
