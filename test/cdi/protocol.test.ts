import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { signUp } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const KEY = "cdi-test-key-0123456789-abcdefghijklmnop";
const ADMIN_KEY = "admin-test-key-0123456789-abcdefghijklmnop";

/** The CDI as the SDK speaks it, request by request: keys, versions, errors, sessions. */
describe.each(backends)("the SuperTokens CDI on $name", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend, config: { cdiApiKey: KEY, adminApiKey: ADMIN_KEY } }); });
  afterAll(async () => { await t?.close(); });

  const cdi = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) => fetch(`${t.url}/cdi${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { "api-key": KEY, "cdi-version": "5.4", ...(init.body === undefined ? {} : { "content-type": "application/json" }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const json = async (path: string, init: Parameters<typeof cdi>[1] = {}) => {
    const res = await cdi(path, init);
    expect(res.status, await res.clone().text()).toBe(200);
    return res.json() as Promise<Record<string, any>>;
  };
  const newUser = async (email: string) => ((await signUp(t.url, email, "header")).json as { user: { id: string } }).user.id;
  const jwt = (token: string) => JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()) as Record<string, unknown>;
  const header = (token: string) => JSON.parse(Buffer.from(token.split(".")[0], "base64url").toString()) as Record<string, unknown>;

  it("answers /apiversion with the key and without a version; refuses a missing or wrong key with the core's 401 text", async () => {
    expect(await json("/apiversion", { headers: { "cdi-version": "" } })).toEqual({ versions: ["5.4"] });
    for (const headers of [{ "api-key": "" }, { "api-key": KEY + "x" }]) {
      const res = await cdi("/apiversion", { headers });
      expect(res.status).toBe(401);
      expect(await res.text()).toBe("Invalid API key\n");
    }
    expect((await cdi("/apiversion", { headers: { "api-key": "", authorization: `Bearer ${KEY}` } })).status).toBe(200);
    const noKey = await cdi("/recipe/session/verify", { body: {}, headers: { "api-key": "nope" } });
    expect(noKey.status).toBe(401);
  });

  it("checks cdi-version as the core does, with plain-text errors", async () => {
    const missing = await cdi("/recipe/session?sessionHandle=x", { headers: { "cdi-version": "" } });
    expect(missing.status).toBe(400);
    expect(missing.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await missing.text()).toBe("cdi-version not provided\n");
    const old = await cdi("/recipe/session?sessionHandle=x", { headers: { "cdi-version": "2.18" } });
    expect(old.status).toBe(400);
    expect(await old.text()).toBe("cdi-version 2.18 not supported\n");
    const unknown = await cdi("/recipe/nothing-here");
    expect([unknown.status, await unknown.text()]).toEqual([404, "Not found\n"]);
    const wrongMethod = await cdi("/recipe/session/verify");
    expect(wrongMethod.status).toBe(405);
    const otherTenant = await cdi("/acme/recipe/session", { body: {} });
    expect(otherTenant.status).toBe(400);
    expect(await otherTenant.text()).toMatch(/^AppId or tenantId not found/);
    const otherApp = await cdi("/appid-other/apiversion");
    expect(otherApp.status).toBe(400);
    const badField = await cdi("/public/recipe/session", { body: { userId: 7 } });
    expect([badField.status, await badField.text()]).toEqual([400, "Field name 'userId' is invalid in JSON input\n"]);
  });

  it("serves the JWKS with no key and a Cache-Control the SDK reads", async () => {
    const res = await fetch(`${t.url}/cdi/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("max-age=60, must-revalidate");
    const { keys } = await res.json() as { keys: Array<{ kid: string }> };
    expect(keys.length).toBeGreaterThan(0);
    expect(keys[0].kid).toMatch(/^d-/);
  });

  it("a ban ends the person's CDI sessions (verify with checkDatabase, refresh) and refuses a new one with a 400, not a 500", async () => {
    const userId = await newUser("cdi-banned@example.com");
    const body = { userId, userDataInJWT: {}, userDataInDatabase: {}, useDynamicSigningKey: true, enableAntiCsrf: false };
    const created = await json("/public/recipe/session", { body });
    const banned = await fetch(`${t.url}/admin/v1/users/${userId}/ban`, { method: "POST", headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json" }, body: JSON.stringify({ reason: "spam" }) });
    expect(banned.status).toBe(200);
    const checked = await json("/recipe/session/verify", { body: { accessToken: created.accessToken.token, doAntiCsrfCheck: false, enableAntiCsrf: false, checkDatabase: true } });
    expect(checked.status).toBe("UNAUTHORISED");
    expect((await json("/recipe/session/refresh", { body: { refreshToken: created.refreshToken.token, enableAntiCsrf: false, useDynamicSigningKey: true } })).status).toBe("UNAUTHORISED");
    const refused = await cdi("/public/recipe/session", { body });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/security reasons/);
  });

  it("creates, verifies, refreshes (promotion, then theft) and lists sessions in authsvc's own store", async () => {
    const userId = await newUser("cdi-session@example.com");
    const created = await json("/public/recipe/session", { body: { userId, userDataInJWT: { app: 1 }, userDataInDatabase: { cart: 2 }, useDynamicSigningKey: true, enableAntiCsrf: false } });
    expect(created.status).toBe("OK");
    expect(created.session).toEqual({ handle: expect.any(String), userId, recipeUserId: userId, userDataInJWT: { app: 1 }, tenantId: "public" });
    const at0 = created.accessToken.token as string;
    expect(header(at0)).toMatchObject({ alg: "RS256", version: "5", kid: expect.stringMatching(/^d-/) });
    expect(jwt(at0)).toMatchObject({ sub: userId, rsub: userId, tId: "public", app: 1, sessionHandle: created.session.handle });
    expect(jwt(at0).parentRefreshTokenHash1).toBeUndefined();
    const handle = created.session.handle as string;

    // authsvc's own list of the user's sessions has it beside the one the sign-up opened (one table).
    const listed = (await json(`/recipe/session/user?userId=${userId}`)).sessionHandles as string[];
    expect(listed).toHaveLength(2);
    expect(listed).toContain(handle);
    expect(await json(`/recipe/session?sessionHandle=${handle}`)).toMatchObject({ status: "OK", userId, sessionDataInDatabase: { cart: 2 }, userDataInJWT: { app: 1 }, tenantId: "public" });

    const checked = await json("/recipe/session/verify", { body: { accessToken: at0, doAntiCsrfCheck: false, enableAntiCsrf: false, checkDatabase: true } });
    expect(checked).toMatchObject({ status: "OK", session: { handle, userId, userDataInJWT: { app: 1 } } });
    expect(checked.accessToken).toBeUndefined();

    const r1 = await json("/recipe/session/refresh", { body: { refreshToken: created.refreshToken.token, enableAntiCsrf: false, useDynamicSigningKey: true } });
    expect(r1.status).toBe("OK");
    const at1 = r1.accessToken.token as string;
    expect(jwt(at1).parentRefreshTokenHash1).toEqual(jwt(at0).refreshTokenHash1);
    // The SDK asks the core about a token with a parent: the child is promoted, a token without it answered.
    const promoted = await json("/recipe/session/verify", { body: { accessToken: at1, doAntiCsrfCheck: false, enableAntiCsrf: false, checkDatabase: false } });
    expect(promoted.status).toBe("OK");
    expect(jwt(promoted.accessToken.token).parentRefreshTokenHash1).toBeUndefined();
    expect(jwt(promoted.accessToken.token).refreshTokenHash1).toEqual(jwt(at1).refreshTokenHash1);

    // The first refresh token again, after its child was used: theft, the session ends.
    const theft = await json("/recipe/session/refresh", { body: { refreshToken: created.refreshToken.token, enableAntiCsrf: false, useDynamicSigningKey: true } });
    expect(theft).toEqual({ status: "TOKEN_THEFT_DETECTED", session: { handle, userId, recipeUserId: userId } });
    expect((await json("/recipe/session/refresh", { body: { refreshToken: r1.refreshToken.token, enableAntiCsrf: false, useDynamicSigningKey: true } })).status).toBe("UNAUTHORISED");
    expect((await json("/recipe/session/verify", { body: { accessToken: at0, doAntiCsrfCheck: false, enableAntiCsrf: false, checkDatabase: true } })).status).toBe("UNAUTHORISED");
    expect((await json(`/recipe/session/user?userId=${userId}`)).sessionHandles).toEqual(listed.filter((h) => h !== handle));
  });

  it("refreshes twice from the same token until a child is used (a lost answer), and an expired token asks for a refresh", async () => {
    const userId = await newUser("cdi-twice@example.com");
    const created = await json("/public/recipe/session", { body: { userId, userDataInJWT: {}, userDataInDatabase: {}, useDynamicSigningKey: true, enableAntiCsrf: false } });
    const body = { refreshToken: created.refreshToken.token, enableAntiCsrf: false, useDynamicSigningKey: true };
    const a = await json("/recipe/session/refresh", { body });
    const b = await json("/recipe/session/refresh", { body });
    expect([a.status, b.status]).toEqual(["OK", "OK"]);
    // b's child is used: a's child is now a sibling of the current token, and using it is theft.
    expect((await json("/recipe/session/refresh", { body: { ...body, refreshToken: b.refreshToken.token } })).status).toBe("OK");
    expect((await json("/recipe/session/refresh", { body: { ...body, refreshToken: a.refreshToken.token } })).status).toBe("TOKEN_THEFT_DETECTED");

    const other = await json("/public/recipe/session", { body: { userId, userDataInJWT: {}, userDataInDatabase: {}, useDynamicSigningKey: true, enableAntiCsrf: false } });
    t.clock.advance(t.config.accessTokenLifetimeMs + 1000);
    expect((await json("/recipe/session/verify", { body: { accessToken: other.accessToken.token, doAntiCsrfCheck: false, enableAntiCsrf: false, checkDatabase: false } })).status).toBe("TRY_REFRESH_TOKEN");
  });

  it("regenerates with a new payload, updates data and payload, and removes sessions by handle and by user", async () => {
    const userId = await newUser("cdi-regen@example.com");
    const open = () => json("/public/recipe/session", { body: { userId, userDataInJWT: { a: 1 }, userDataInDatabase: {}, useDynamicSigningKey: true, enableAntiCsrf: true } });
    const s1 = await open();
    expect(s1.antiCsrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(jwt(s1.accessToken.token).antiCsrfToken).toBe(s1.antiCsrfToken);
    const handle = s1.session.handle as string;
    const regen = await json("/recipe/session/regenerate", { body: { accessToken: s1.accessToken.token, userDataInJWT: { a: 2, "st-ev": { v: true, t: 1 } } } });
    expect(regen.session.userDataInJWT).toEqual({ a: 2, "st-ev": { v: true, t: 1 } });
    expect(jwt(regen.accessToken.token).exp).toBe(jwt(s1.accessToken.token).exp);
    const protectedKey = await cdi("/recipe/session/regenerate", { body: { accessToken: s1.accessToken.token, userDataInJWT: { sub: "someone-else" } } });
    expect(protectedKey.status).toBe(400);

    expect(await json("/recipe/session/data", { method: "PUT", body: { sessionHandle: handle, userDataInDatabase: { x: 1 } } })).toEqual({ status: "OK" });
    expect(await json("/recipe/jwt/data", { method: "PUT", body: { sessionHandle: handle, userDataInJWT: { b: 3 } } })).toEqual({ status: "OK" });
    expect(await json(`/recipe/session?sessionHandle=${handle}`)).toMatchObject({ sessionDataInDatabase: { x: 1 }, userDataInJWT: { b: 3 } });
    // The refresh needs the anti-CSRF token this session was given.
    const refresh = { refreshToken: s1.refreshToken.token, enableAntiCsrf: true, useDynamicSigningKey: true };
    expect((await json("/recipe/session/refresh", { body: { ...refresh, antiCsrfToken: "wrong" } })).status).toBe("UNAUTHORISED");
    const r = await json("/recipe/session/refresh", { body: { ...refresh, antiCsrfToken: s1.antiCsrfToken } });
    expect(jwt(r.accessToken.token)).toMatchObject({ b: 3 });

    const s2 = await open();
    expect(await json("/recipe/session/remove", { body: { sessionHandles: [handle] } })).toEqual({ status: "OK", sessionHandlesRevoked: [handle] });
    expect(await json(`/recipe/session?sessionHandle=${handle}`)).toEqual({ status: "UNAUTHORISED", message: "Session does not exist." });
    // By user: every live session of the person, the one the sign-up opened through the API too.
    const byUser = await json("/public/recipe/session/remove", { body: { userId, revokeAcrossAllTenants: true } });
    expect(byUser.sessionHandlesRevoked).toHaveLength(2);
    expect(byUser.sessionHandlesRevoked).toContain(s2.session.handle);
    expect((await json(`/recipe/session/user?userId=${userId}`)).sessionHandles).toEqual([]);
    expect(await json("/recipe/session/data", { method: "PUT", body: { sessionHandle: handle, userDataInDatabase: {} } })).toMatchObject({ status: "UNAUTHORISED" });
  });

  it("ends a CDI session with authsvc's security events (sign out everywhere, through the admin API)", async () => {
    const userId = await newUser("cdi-ended@example.com");
    const s = await json("/public/recipe/session", { body: { userId, userDataInJWT: {}, userDataInDatabase: {}, useDynamicSigningKey: true, enableAntiCsrf: false } });
    const res = await fetch(`${t.url}/admin/v1/users/${userId}/sessions`, { method: "DELETE", headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    expect((await json("/recipe/session/refresh", { body: { refreshToken: s.refreshToken.token, enableAntiCsrf: false, useDynamicSigningKey: true } })).status).toBe("UNAUTHORISED");
    expect((await json("/recipe/session/verify", { body: { accessToken: s.accessToken.token, doAntiCsrfCheck: false, enableAntiCsrf: false, checkDatabase: true } })).status).toBe("UNAUTHORISED");
  });

  it("is off without a key: /cdi is not found", async () => {
    const off = await createTestApp({ backend });
    try {
      expect((await fetch(`${off.url}/cdi/apiversion`, { headers: { "api-key": KEY } })).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
