import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { authorizeInBrowser, CONFIDENTIAL, closedPort, PUBLIC, REDIRECT_URI, startOidcProvider, type TestIdp } from "../helpers/oidc-provider.js";
import { findUser } from "../../src/core/users.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { upsertThirdPartyUser } from "../../src/methods/third-party/sign-in-up.js";
import { nonceForVerifier } from "../../src/methods/third-party/id-token.js";
import { runCli } from "../helpers/cli.js";

/** GET/POST against our server; returns status and JSON body. */
async function api(t: TestApp, path: string, body?: unknown) {
  const res = await fetch(`${t.url}/auth${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers };
}

async function countUsers(t: TestApp): Promise<number> {
  const r = await t.app.store.db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Our authorisation URL → the provider's login + consent → POST /signinup with the callback code. */
async function signInThroughProvider(t: TestApp, thirdPartyId: string, login: string, tamper?: { pkceCodeVerifier?: string }) {
  const url = await api(t, `/authorisationurl?thirdPartyId=${thirdPartyId}&redirectURIOnProviderDashboard=${encodeURIComponent(REDIRECT_URI)}`);
  expect(url.status).toBe(200);
  const params = await authorizeInBrowser(url.body.urlWithQueryParams, login);
  return api(t, "/signinup", {
    thirdPartyId,
    redirectURIInfo: { redirectURIOnProviderDashboard: REDIRECT_URI, redirectURIQueryParams: params, pkceCodeVerifier: tamper?.pkceCodeVerifier ?? url.body.pkceCodeVerifier },
  });
}

/** Real tokens of the public client, obtained the way a native app would (code + PKCE at /token). */
async function tokensFor(t: TestApp, idp: TestIdp, login: string): Promise<{ id_token: string; access_token: string; verifier: string }> {
  const url = await api(t, `/authorisationurl?thirdPartyId=oidc-pkce&redirectURIOnProviderDashboard=${encodeURIComponent(REDIRECT_URI)}`);
  const { code } = await authorizeInBrowser(url.body.urlWithQueryParams, login);
  const res = await fetch(`${idp.issuer}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, client_id: PUBLIC.clientId, code_verifier: url.body.pkceCodeVerifier }),
  });
  expect(res.status).toBe(200);
  const { id_token, access_token } = (await res.json()) as { id_token: string; access_token: string };
  return { id_token, access_token, verifier: url.body.pkceCodeVerifier };
}

describe.each(backends)("third-party sign-in against a real OpenID provider ($name)", (backend) => {
  let idp: TestIdp;
  let t: TestApp;
  let hangServer: import("node:net").Server;
  const hangSockets = new Set<import("node:net").Socket>();

  beforeAll(async () => {
    idp = await startOidcProvider();
    const net = await import("node:net");
    // Accepts connections and never answers: the timeout must end the call.
    hangServer = net.createServer((s) => { hangSockets.add(s); });
    await new Promise<void>((r) => hangServer.listen(0, "127.0.0.1", () => r()));
    const hangPort = (hangServer.address() as import("node:net").AddressInfo).port;
    t = await createTestApp({
      backend,
      config: {
        providers: [
          { thirdPartyId: "oidc", name: "Test OIDC", oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email"] },
          { thirdPartyId: "oidc-pkce", oidcDiscoveryEndpoint: idp.discovery, clientId: PUBLIC.clientId, scope: ["openid", "email"] },
          {
            thirdPartyId: "oauth2", name: "Plain OAuth2",
            authorizationEndpoint: `${idp.issuer}/auth`, tokenEndpoint: `${idp.issuer}/token`, userInfoEndpoint: `${idp.issuer}/me`,
            clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "account"],
            userInfoMap: { fromUserInfoAPI: { userId: "sub", email: "account.primary_email", emailVerified: "account.verified" } },
          },
          { thirdPartyId: "down", oidcDiscoveryEndpoint: `http://127.0.0.1:${await closedPort()}/.well-known/openid-configuration`, clientId: "x", clientSecret: "never-echo-this-secret" },
          { thirdPartyId: "hang", oidcDiscoveryEndpoint: `http://127.0.0.1:${hangPort}/.well-known/openid-configuration`, clientId: "x", timeoutMs: 300 },
        ],
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
    for (const s of hangSockets) s.destroy();
    await new Promise<void>((r) => hangServer.close(() => r()));
  });

  it("lists the enabled methods and providers at /loginmethods", async () => {
    const r = await api(t, "/loginmethods");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      status: "OK",
      emailPassword: { enabled: true },
      thirdParty: { enabled: true, providers: [{ id: "oidc", name: "Test OIDC" }, { id: "oidc-pkce", name: "oidc-pkce" }, { id: "oauth2", name: "Plain OAuth2" }, { id: "down", name: "down" }, { id: "hang", name: "hang" }] },
      passwordless: { enabled: true },
      webauthn: { enabled: true },
      firstFactors: ["emailpassword", "thirdparty", "otp-email", "link-email", "webauthn"],
    });
    expect((await api(t, "/public/loginmethods")).status).toBe(200);
  });

  it("answers /authorisationurl input errors with the FDI messages", async () => {
    const r1 = await api(t, `/authorisationurl?redirectURIOnProviderDashboard=${encodeURIComponent(REDIRECT_URI)}`);
    expect(r1).toMatchObject({ status: 400, body: { message: "Please provide the thirdPartyId as a GET param" } });
    const r2 = await api(t, "/authorisationurl?thirdPartyId=oidc");
    expect(r2).toMatchObject({ status: 400, body: { message: "Please provide the redirectURIOnProviderDashboard as a GET param" } });
    const r3 = await api(t, `/authorisationurl?thirdPartyId=nope&redirectURIOnProviderDashboard=${encodeURIComponent(REDIRECT_URI)}`);
    expect(r3).toMatchObject({ status: 400, body: { message: "the provider nope could not be found in the configuration" } });
  });

  it("builds authorisation URLs with PKCE S256 for public clients and when discovery lists S256, not otherwise", async () => {
    const pub = await api(t, `/authorisationurl?thirdPartyId=oidc-pkce&redirectURIOnProviderDashboard=${encodeURIComponent(REDIRECT_URI)}`);
    expect(pub.status).toBe(200);
    expect(pub.headers.get("cache-control")).toBe("no-store");
    const u = new URL(pub.body.urlWithQueryParams);
    expect(u.origin + u.pathname).toBe(`${idp.issuer}/auth`);
    expect(Object.fromEntries(u.searchParams)).toMatchObject({ client_id: PUBLIC.clientId, redirect_uri: REDIRECT_URI, response_type: "code", scope: "openid email", code_challenge_method: "S256" });
    expect(pub.body.pkceCodeVerifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(u.searchParams.get("nonce")).toBeTruthy();
    const plain = await api(t, `/authorisationurl?thirdPartyId=oauth2&redirectURIOnProviderDashboard=${encodeURIComponent(REDIRECT_URI)}`);
    expect(plain.body.pkceCodeVerifier).toBeUndefined();
    expect(new URL(plain.body.urlWithQueryParams).searchParams.has("code_challenge")).toBe(false);
    expect(plain.body.urlWithQueryParams).not.toContain(CONFIDENTIAL.clientSecret);
  });

  it("signs a user up through login and consent, then signs them in again and follows an email change", async () => {
    idp.accounts.set("alice", { email: "Alice@Example.com", email_verified: true });
    const first = await signInThroughProvider(t, "oidc", "alice");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: "OK", createdNewRecipeUser: true, user: { email: "alice@example.com", thirdParty: [{ id: "oidc", userId: "alice" }], loginMethods: [{ recipeId: "thirdparty", email: "alice@example.com", verified: true, thirdParty: { id: "oidc", userId: "alice" } }] } });
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(JSON.stringify(first.body)).not.toMatch(/access_token|id_token|s3cret/);
    const id = first.body.user.id;

    idp.accounts.set("alice", { email: "alice.new@example.com", email_verified: false });
    const again = await signInThroughProvider(t, "oidc", "alice");
    expect(again.body).toMatchObject({ status: "OK", createdNewRecipeUser: false, user: { id, email: "alice.new@example.com", loginMethods: [{ email: "alice.new@example.com", verified: false }] } });
    const row = await t.app.store.db.selectFrom("users").select("email").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.email).toBe("alice.new@example.com");

    const shown = await runCli(["users", "show", id, "--database", t.config.database]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("thirdparty (oidc, user alice)");
  });

  it("signs in a public client with PKCE, and rejects a wrong PKCE verifier without creating a user", async () => {
    idp.accounts.set("dave", { email: "dave@example.com", email_verified: true });
    const before = await countUsers(t);
    const wrong = await signInThroughProvider(t, "oidc-pkce", "dave", { pkceCodeVerifier: "x".repeat(43) });
    expect(wrong).toMatchObject({ status: 400, body: { message: "The provider oidc-pkce rejected the authorization code (invalid_grant)" } });
    expect(await countUsers(t)).toBe(before);
    const ok = await signInThroughProvider(t, "oidc-pkce", "dave");
    expect(ok.body).toMatchObject({ status: "OK", createdNewRecipeUser: true, user: { email: "dave@example.com", thirdParty: [{ id: "oidc-pkce", userId: "dave" }] } });
  });

  it("checks the code flow's ID token and callback: a nonce that is not ours or another issuer's iss is refused, creating nobody", async () => {
    idp.accounts.set("frank", { email: "frank@example.com", email_verified: true });
    const before = await countUsers(t);
    const url = await api(t, `/authorisationurl?thirdPartyId=oidc-pkce&redirectURIOnProviderDashboard=${encodeURIComponent(REDIRECT_URI)}`);
    const swapped = new URL(url.body.urlWithQueryParams);
    swapped.searchParams.set("nonce", "a-nonce-some-other-browser-asked-for");
    const params = await authorizeInBrowser(swapped.toString(), "frank");
    const signIn = (query: Record<string, string>, pkceCodeVerifier: string) =>
      api(t, "/signinup", { thirdPartyId: "oidc-pkce", redirectURIInfo: { redirectURIOnProviderDashboard: REDIRECT_URI, redirectURIQueryParams: query, pkceCodeVerifier } });
    expect(await signIn(params, url.body.pkceCodeVerifier)).toMatchObject({ status: 400, body: { message: 'The ID token from the provider oidc-pkce is invalid: its "nonce" claim does not match' } });

    const fresh = await api(t, `/authorisationurl?thirdPartyId=oidc-pkce&redirectURIOnProviderDashboard=${encodeURIComponent(REDIRECT_URI)}`);
    const good = await authorizeInBrowser(fresh.body.urlWithQueryParams, "frank");
    expect(good.iss).toBe(idp.issuer);
    expect(await signIn({ ...good, iss: "https://another-idp.example" }, fresh.body.pkceCodeVerifier))
      .toMatchObject({ status: 400, body: { message: "The provider oidc-pkce did not issue this authorization response (iss does not match)" } });
    expect(await countUsers(t)).toBe(before);
    // Refused before the token request, so the code is still good.
    expect((await signIn(good, fresh.body.pkceCodeVerifier)).body).toMatchObject({ status: "OK", createdNewRecipeUser: true, user: { email: "frank@example.com" } });
  });

  it("passes the same flow configured as plain OAuth2 (explicit endpoints, user-info map with dotted paths)", async () => {
    idp.accounts.set("bob", { account: { primary_email: "Bob@Example.org", verified: true } });
    const r = await signInThroughProvider(t, "oauth2", "bob");
    expect(r.body).toMatchObject({ status: "OK", createdNewRecipeUser: true, user: { email: "bob@example.org", thirdParty: [{ id: "oauth2", userId: "bob" }], loginMethods: [{ verified: true }] } });
  });

  it("answers NO_EMAIL_GIVEN_BY_PROVIDER when the provider has no email, and creates nobody", async () => {
    idp.accounts.set("noemail", {});
    const before = await countUsers(t);
    const r = await signInThroughProvider(t, "oidc", "noemail");
    expect(r).toMatchObject({ status: 200, body: { status: "NO_EMAIL_GIVEN_BY_PROVIDER" } });
    expect(await countUsers(t)).toBe(before);
  });

  it("accepts valid oAuthTokens and rejects tampered, wrong-audience and expired ID tokens, naming the provider", async () => {
    idp.accounts.set("erin", { email: "erin@example.com", email_verified: true });
    const { verifier, ...tokens } = await tokensFor(t, idp, "erin");
    const before = await countUsers(t);

    const [h, p, s] = tokens.id_token.split(".");
    const payload = JSON.parse(Buffer.from(p, "base64url").toString());
    // The provider echoed the nonce our authorisation URL derived from the PKCE verifier.
    expect(payload.nonce).toBe(nonceForVerifier(verifier));
    const forged = [h, Buffer.from(JSON.stringify({ ...payload, sub: "mallory" })).toString("base64url"), s].join(".");
    const tampered = await api(t, "/signinup", { thirdPartyId: "oidc-pkce", oAuthTokens: { id_token: forged } });
    expect(tampered).toMatchObject({ status: 400, body: { message: "The ID token from the provider oidc-pkce is invalid: its signature does not verify" } });

    // Issued to public-app, presented for the provider configured with confidential-app.
    const audience = await api(t, "/signinup", { thirdPartyId: "oidc", oAuthTokens: tokens });
    expect(audience).toMatchObject({ status: 400, body: { message: 'The ID token from the provider oidc is invalid: its "aud" claim does not match' } });

    const bare = await api(t, "/signinup", { thirdPartyId: "oidc-pkce", oAuthTokens: { access_token: tokens.access_token } });
    expect(bare).toMatchObject({ status: 400, body: { message: "The provider oidc-pkce needs an id_token in oAuthTokens" } });
    expect(await countUsers(t)).toBe(before);

    const ok = await api(t, "/signinup", { thirdPartyId: "oidc-pkce", oAuthTokens: tokens });
    expect(ok.body).toMatchObject({ status: "OK", createdNewRecipeUser: true, user: { email: "erin@example.com" } });

    const saved = t.clock.now();
    t.clock.advance(2 * 3600_000);
    try {
      const expired = await api(t, "/signinup", { thirdPartyId: "oidc-pkce", oAuthTokens: { id_token: tokens.id_token } });
      expect(expired).toMatchObject({ status: 400, body: { message: "The ID token from the provider oidc-pkce is invalid: it has expired" } });
    } finally {
      t.clock.set(saved);
    }
  });

  it("reports an unreachable or silent provider as 502 naming it, quickly, without echoing its secret", async () => {
    const down = await api(t, `/authorisationurl?thirdPartyId=down&redirectURIOnProviderDashboard=${encodeURIComponent(REDIRECT_URI)}`);
    expect(down).toMatchObject({ status: 502, body: { message: "Could not reach the provider down (discovery endpoint)" } });
    const downSignIn = await api(t, "/signinup", { thirdPartyId: "down", redirectURIInfo: { redirectURIOnProviderDashboard: REDIRECT_URI, redirectURIQueryParams: { code: "abc" } } });
    expect(downSignIn.status).toBe(502);
    expect(JSON.stringify(downSignIn.body)).not.toContain("never-echo-this-secret");
    const hang = await api(t, `/authorisationurl?thirdPartyId=hang&redirectURIOnProviderDashboard=${encodeURIComponent(REDIRECT_URI)}`);
    expect(hang).toMatchObject({ status: 502, body: { message: "The provider hang did not answer its discovery endpoint within 300 ms" } });
  });

  it("answers /signinup input errors with the FDI messages", async () => {
    expect(await api(t, "/signinup", {})).toMatchObject({ status: 400, body: { message: "Please provide the thirdPartyId in request body" } });
    expect(await api(t, "/signinup", { thirdPartyId: "oidc" })).toMatchObject({ status: 400, body: { message: "Please provide one of redirectURIInfo or oAuthTokens in the request body" } });
    expect(await api(t, "/signinup", { thirdPartyId: "oidc", redirectURIInfo: { redirectURIQueryParams: { code: "x" } } })).toMatchObject({ status: 400, body: { message: "Please provide the redirectURIOnProviderDashboard in request body" } });
    expect(await api(t, "/signinup", { thirdPartyId: "nope", oAuthTokens: { id_token: "x" } })).toMatchObject({ status: 400, body: { message: "the provider nope could not be found in the configuration" } });
    expect(await api(t, "/signinup", { thirdPartyId: "oidc", redirectURIInfo: { redirectURIOnProviderDashboard: REDIRECT_URI, redirectURIQueryParams: { error: "access_denied" } } }))
      .toMatchObject({ status: 400, body: { message: "The provider oidc returned an error: access_denied" } });
    expect(await api(t, "/signinup", { thirdPartyId: "oidc", redirectURIInfo: { redirectURIOnProviderDashboard: "not a url", redirectURIQueryParams: { code: "x" } } }))
      .toMatchObject({ status: 400, body: { message: "redirectURIOnProviderDashboard must be an absolute URL" } });
    expect(await api(t, "/signinup", { thirdPartyId: "oidc", oAuthTokens: { id_token: "not-a-jwt" } })).toMatchObject({ status: 400, body: { message: "The ID token from the provider oidc is invalid: it is malformed" } });
  });

  it("refuses a provider sign-up for an address an unverified password account has (account linking's safe mode)", async () => {
    const ep = await signUpWithPassword(t.app.ctx, { email: "carol@example.com", password: "a long enough passphrase" });
    expect(ep.status).toBe("OK");
    idp.accounts.set("carol", { email: "carol@example.com", email_verified: true });
    const tp = await signInThroughProvider(t, "oidc", "carol");
    expect(tp.body).toEqual({ status: "SIGN_IN_UP_NOT_ALLOWED", reason: "Cannot sign in / up due to security reasons. Please try a different login method or contact support. (ERR_CODE_006)" });
    const byEmail = await findUser(t.app.ctx, "carol@example.com");
    expect(byEmail?.loginMethods.map((m) => m.recipeId)).toEqual(["emailpassword"]);
  });

  it("ends concurrent first sign-ins of one identity with one user", async () => {
    const runs = await Promise.all(Array.from({ length: 8 }, () =>
      upsertThirdPartyUser(t.app.ctx, { thirdPartyId: "oidc", thirdPartyUserId: "racer", email: "racer@example.com", emailVerified: true })));
    const ok = runs.map((r) => (r.status === "OK" ? r : undefined));
    expect(new Set(ok.map((r) => r?.user.id)).size).toBe(1);
    expect(ok.filter((r) => r?.createdNewRecipeUser)).toHaveLength(1);
    const n = await sql<{ n: number }>`select count(*) as n from users where email = ${"racer@example.com"}`.execute(t.app.store.db);
    expect(Number(n.rows[0].n)).toBe(1);
  });
});

describe.each(backends)("Apple's form_post callback on $name", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend, config: { websiteUrl: "https://app.example.com" } }); });
  afterAll(async () => { await t?.close(); });

  it("redirects to the website's callback page with code and state, never to a URL from the request", async () => {
    const res = await fetch(`${t.url}/auth/callback/apple`, {
      method: "POST", redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ code: "c0de", state: "st", id_token: "secret.jwt.value", redirect: "https://evil.example" }).toString(),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("https://app.example.com/auth/callback/apple?code=c0de&state=st");
    expect(res.headers.get("content-type")).toBe("text/html");
    const json = await fetch(`${t.url}/auth/callback/apple`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(json.status).toBe(415);
  });
});
