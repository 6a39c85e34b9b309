import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { CONFIDENTIAL, REDIRECT_URI, signInWithProvider, startOidcProvider, type TestIdp } from "../helpers/oidc-provider.js";
import { authHeaders, decodeFrontToken, modeHeaders, modes, readTokens, refresh, setCookies, type Mode, type Tokens } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/** The session transport of a sign-in/up response, exactly as sign-up delivers it (PROTOCOL.md §2). */
function expectSessionIn(mode: Mode, res: Response, json: Record<string, unknown>, apiBasePath: string) {
  expect(res.headers.get("cache-control")).toBe("no-store");
  const ft = res.headers.get("front-token");
  expect(ft).toMatch(/^[A-Za-z0-9+/]+=*$/); // standard base64: the browser SDK decodes it with atob
  const cookies = setCookies(res);
  if (mode === "cookie") {
    expect(Object.keys(cookies).sort()).toEqual(["sAccessToken", "sRefreshToken"]);
    expect(cookies.sAccessToken.raw).toMatch(/; Path=\/;.*HttpOnly/);
    expect(cookies.sRefreshToken.raw).toContain(`Path=${apiBasePath}/session/refresh`);
    expect(res.headers.get("access-control-expose-headers")).toBe("front-token");
  } else {
    expect(cookies).toEqual({});
  }
  if (mode === "header") {
    expect(res.headers.get("st-access-token")).toMatch(/^ey/);
    expect(res.headers.get("st-refresh-token")!.length).toBeGreaterThanOrEqual(43);
    expect(res.headers.get("access-control-expose-headers")).toBe("front-token, st-access-token, st-refresh-token");
  } else {
    expect(res.headers.get("st-access-token")).toBeNull();
    expect(res.headers.get("st-refresh-token")).toBeNull();
  }
  if (mode === "body") {
    expect(json.accessToken).toMatch(/^ey/);
    expect(json.accessTokenExpiresAt).toBe(decodeFrontToken(ft!).ate);
    expect(res.headers.get("access-control-expose-headers")).toBe("front-token");
  } else {
    expect(json).not.toHaveProperty("accessToken");
    expect(json).not.toHaveProperty("refreshToken");
  }
}

/** No trace of a session on a response. */
function expectNoSession(res: Response, json: Record<string, unknown>) {
  expect(res.headers.getSetCookie()).toEqual([]);
  expect(res.headers.get("front-token")).toBeNull();
  expect(res.headers.get("st-access-token")).toBeNull();
  expect(res.headers.get("st-refresh-token")).toBeNull();
  expect(json).not.toHaveProperty("accessToken");
}

describe.each(backends)("POST /signinup starts a session, end to end against a real OpenID provider ($name)", (backend) => {
  let idp: TestIdp;
  let t: TestApp;
  let issuer: string;
  let jwks: ReturnType<typeof createRemoteJWKSet>;

  beforeAll(async () => {
    idp = await startOidcProvider();
    t = await createTestApp({
      backend,
      config: {
        providers: [
          { thirdPartyId: "oidc", name: "Test OIDC", oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email"] },
          {
            // Email in the ID token, a *different* address with its verified flag from user info.
            thirdPartyId: "split", oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email", "account"],
            userInfoMap: { fromUserInfoAPI: { email: "account.primary_email", emailVerified: "account.verified" } },
          },
        ],
      },
    });
    issuer = t.config.publicUrl + t.config.apiBasePath;
    jwks = createRemoteJWKSet(new URL(`${t.url}/auth/jwt/jwks.json`));
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  const verifyStatus = (tokens: Tokens) => fetch(`${t.url}/auth/user/email/verify`, { headers: authHeaders(tokens) });
  const verifyJwt = (jwt: string) => jwtVerify(jwt, jwks, { issuer, algorithms: ["RS256"], currentDate: new Date(t.clock.now()) });
  const countSessions = async () => Number((await t.app.store.db.selectFrom("sessions").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);

  describe.each(modes)("%s mode", (mode) => {
    it.each([true, false])("email_verified=%s: session, verify status, JWKS, refresh; a second sign-in reuses the user", async (verified) => {
      const login = `${verified ? "verified" : "unverified"}-${mode}`;
      idp.accounts.set(login, { email: `${login}@Example.com`, email_verified: verified });
      const first = await signInWithProvider(t.url, "oidc", login, modeHeaders(mode));
      expect(first.res.status).toBe(200);
      expect(first.json).toMatchObject({
        status: "OK", createdNewRecipeUser: true,
        user: { email: `${login}@example.com`, thirdParty: [{ id: "oidc", userId: login }], loginMethods: [{ recipeId: "thirdparty", verified, thirdParty: { id: "oidc", userId: login } }] },
      });
      const userId = first.json.user.id as string;
      expectSessionIn(mode, first.res, first.json, t.config.apiBasePath);
      const tokens = readTokens(first.res, mode, first.json);

      // The access token verifies against our JWKS and carries the provider's verdict as st-ev.
      const { payload } = await verifyJwt(tokens.access);
      expect(payload).toMatchObject({ sub: userId, rsub: userId, iss: issuer, tId: "public", "st-ev": { v: verified } });
      expect(decodeFrontToken(first.res.headers.get("front-token")!)).toEqual({ uid: userId, ate: payload.exp! * 1000, up: payload });

      const status = await verifyStatus(tokens);
      expect(status.status).toBe(200);
      expect(await status.json()).toEqual({ status: "OK", isVerified: verified });
      expect(status.headers.get("front-token")).toBeNull(); // claim already right: nothing re-signed

      // Refresh works like an email/password session's: rotation, same session, new tokens.
      const r = await refresh(t.url, tokens);
      expect(r.status).toBe(200);
      const rJson = (await r.json()) as Record<string, unknown>;
      const next = readTokens(r, mode, rJson, tokens);
      expect(next.refresh).not.toBe(tokens.refresh);
      expect(next.access).not.toBe(tokens.access);
      const refreshed = (await verifyJwt(next.access)).payload;
      expect(refreshed.refreshTokenHash1).not.toBe(payload.refreshTokenHash1);
      expect(refreshed).toMatchObject({ sub: userId, sessionHandle: payload.sessionHandle, "st-ev": { v: verified } });
      expect(await (await verifyStatus(next)).json()).toEqual({ status: "OK", isVerified: verified });

      // The second sign-in finds the same user and opens a second, independent session.
      const again = await signInWithProvider(t.url, "oidc", login, modeHeaders(mode));
      expect(again.json).toMatchObject({ status: "OK", createdNewRecipeUser: false, user: { id: userId } });
      expectSessionIn(mode, again.res, again.json, t.config.apiBasePath);
      const second = readTokens(again.res, mode, again.json);
      expect(decodeJwt(second.access)).toMatchObject({ sub: userId });
      expect(decodeJwt(second.access).sessionHandle).not.toBe(payload.sessionHandle);
      expect((await verifyStatus(second)).status).toBe(200);
      expect((await verifyStatus(next)).status).toBe(200);
    });
  });

  it("a later sign-in with the provider now saying verified updates an open session's claim on its next status check", async () => {
    idp.accounts.set("late", { email: "late@example.com", email_verified: false });
    const first = await signInWithProvider(t.url, "oidc", "late", modeHeaders("header"));
    const tokens = readTokens(first.res, "header", first.json);
    expect(await (await verifyStatus(tokens)).json()).toEqual({ status: "OK", isVerified: false });

    idp.accounts.set("late", { email: "late@example.com", email_verified: true });
    const again = await signInWithProvider(t.url, "oidc", "late", modeHeaders("header"));
    expect(again.json).toMatchObject({ status: "OK", createdNewRecipeUser: false, user: { id: first.json.user.id, loginMethods: [{ verified: true }] } });

    const status = await verifyStatus(tokens);
    expect(await status.json()).toEqual({ status: "OK", isVerified: true });
    const reissued = status.headers.get("st-access-token")!;
    expect((await verifyJwt(reissued)).payload).toMatchObject({ sub: first.json.user.id, "st-ev": { v: true } });
    expect(decodeFrontToken(status.headers.get("front-token")!).up["st-ev"]).toMatchObject({ v: true });
  });

  it.each(modes)("NO_EMAIL_GIVEN_BY_PROVIDER and provider errors create no session (%s mode)", async (mode) => {
    idp.accounts.set(`noemail-${mode}`, {});
    const before = await countSessions();
    const none = await signInWithProvider(t.url, "oidc", `noemail-${mode}`, modeHeaders(mode));
    expect(none.res.status).toBe(200);
    expect(none.json).toEqual({ status: "NO_EMAIL_GIVEN_BY_PROVIDER" });
    expectNoSession(none.res, none.json);

    const bad = await fetch(`${t.url}/auth/signinup`, {
      method: "POST",
      headers: { "content-type": "application/json", ...modeHeaders(mode) },
      body: JSON.stringify({ thirdPartyId: "oidc", redirectURIInfo: { redirectURIOnProviderDashboard: REDIRECT_URI, redirectURIQueryParams: { code: "not-a-code-the-provider-issued" } } }),
    });
    const badJson = (await bad.json()) as Record<string, unknown>;
    expect(bad.status).toBe(400);
    expect(badJson).toEqual({ message: "The provider oidc rejected the authorization code (invalid_grant)" });
    expectNoSession(bad, badJson);
    expect(await countSessions()).toBe(before);
  });

  describe("with the website on another site (SameSite=None)", () => {
    let cross: TestApp;
    beforeAll(async () => {
      cross = await createTestApp({
        backend,
        config: {
          websiteUrl: "https://app.example.net", cookieSameSite: "none", cookieSecure: "true",
          providers: [{ thirdPartyId: "oidc", oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email"] }],
        },
      });
    });
    afterAll(async () => { await cross?.close(); });

    it("a cookie session from /signinup gets the same cookie attributes and anti-CSRF rule as one from /signup", async () => {
      idp.accounts.set("cross", { email: "cross@example.com", email_verified: true });
      const r = await signInWithProvider(cross.url, "oidc", "cross");
      expect(r.json.status).toBe("OK");
      const c = setCookies(r.res);
      for (const name of ["sAccessToken", "sRefreshToken"]) expect(c[name].raw).toMatch(/; HttpOnly; Secure; SameSite=None$/);
      const tokens = readTokens(r.res, "cookie", r.json);
      const access = { cookie: `sAccessToken=${tokens.access}` };
      // A GET needs no custom header; a cookie-authenticated POST and a cookie refresh do (§3).
      expect((await fetch(`${cross.url}/auth/user/email/verify`, { headers: access })).status).toBe(200);
      const noRid = await fetch(`${cross.url}/auth/signout`, { method: "POST", headers: access });
      expect([noRid.status, await noRid.json()]).toEqual([401, { message: "try refresh token" }]);
      const refreshNoRid = await fetch(`${cross.url}/auth/session/refresh`, { method: "POST", headers: { cookie: `sRefreshToken=${tokens.refresh}` } });
      expect([refreshNoRid.status, await refreshNoRid.json()]).toEqual([401, { message: "unauthorised" }]);
      expect((await refresh(cross.url, tokens)).status).toBe(200); // the helper sends rid
      const out = await fetch(`${cross.url}/auth/signout`, { method: "POST", headers: { ...access, rid: "session" } });
      expect(out.status).toBe(200);
    });
  });

  it("takes email_verified only for the address it was reported with (ID-token email, other address verified in user info)", async () => {
    idp.accounts.set("split", { email: "id-token@example.com", account: { primary_email: "other@example.com", verified: true } });
    const r = await signInWithProvider(t.url, "split", "split", modeHeaders("header"));
    expect(r.json).toMatchObject({ status: "OK", user: { email: "id-token@example.com", loginMethods: [{ verified: false }] } });
    const tokens = readTokens(r.res, "header", r.json);
    expect(await (await verifyStatus(tokens)).json()).toEqual({ status: "OK", isVerified: false });

    // The same address on both sides: the user-info flag speaks for it.
    idp.accounts.set("split2", { email: "same@example.com", account: { primary_email: "Same@Example.com", verified: true } });
    const same = await signInWithProvider(t.url, "split", "split2", modeHeaders("header"));
    expect(same.json).toMatchObject({ status: "OK", user: { email: "same@example.com", loginMethods: [{ verified: true }] } });
  });
});
