import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getUser } from "../../src/core/users.js";
import { getMetadata } from "../../src/metadata/metadata.js";
import { getUserRoles } from "../../src/roles/roles.js";
import { backends } from "../helpers/backends.js";
import { startSdkApp } from "../helpers/sdk-app.js";
import { CONFIDENTIAL, signInWithProvider, startOidcProvider, type TestIdp } from "../helpers/oidc-provider.js";
import { authHeaders, jwtPayload, readTokens, refresh, type Tokens } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const KEY = "cdi-sdk-key-0123456789-abcdefghijklmnopq";
const ADMIN_KEY = "admin-sdk-key-0123456789-abcdefghijklmnop";
const APP = resolve(import.meta.dirname, "../fixtures/cdi/express-app.mjs");
const PASSWORD = "a long and unusual passphrase 42";

/** The app's backend: a real Express app on supertokens-node 24, its core authsvc's /cdi (a child process). */
const startApp = (cdiUri: string, issuer: string) => startSdkApp(APP, { CDI_URI: cdiUri, CDI_API_KEY: KEY, OIDC_ISSUER: issuer, OIDC_CLIENT_ID: CONFIDENTIAL.clientId, OIDC_CLIENT_SECRET: CONFIDENTIAL.clientSecret });

/**
 * An existing SuperTokens backend switched to authsvc by its connectionURI: its frontend API (the
 * FDI the SDK serves) driven over HTTP as supertokens-web-js would, in header mode.
 */
describe.each(backends)("a supertokens-node 24 app whose core is authsvc, on $name", (backend) => {
  let t: TestApp;
  let app: Awaited<ReturnType<typeof startApp>>;
  let idp: TestIdp;
  beforeAll(async () => {
    t = await createTestApp({ backend, config: { cdiApiKey: KEY, adminApiKey: ADMIN_KEY } });
    idp = await startOidcProvider();
    app = await startApp(`${t.url}/cdi`, idp.issuer);
  });
  afterAll(async () => {
    app?.child.kill("SIGTERM");
    await idp?.close();
    await t?.close();
  });

  const post = async (path: string, body: unknown, tokens?: Tokens, rid?: string) => {
    const res = await fetch(app.url + path, { method: "POST", headers: { "content-type": "application/json", "st-auth-mode": "header", ...(rid ? { rid } : {}), ...(tokens ? authHeaders(tokens) : {}) }, body: JSON.stringify(body) });
    const text = await res.text();
    return { res, status: res.status, json: (text ? JSON.parse(text) : {}) as Record<string, any>, tokens: tokens ? readTokens(res, "header", undefined, tokens) : readTokens(res, "header") };
  };
  const get = async (path: string, tokens: Tokens) => {
    const res = await fetch(app.url + path, { headers: { "st-auth-mode": "header", ...authHeaders(tokens) } });
    return { status: res.status, json: (await res.json()) as Record<string, any>, tokens: readTokens(res, "header", undefined, tokens) };
  };
  const form = (email: string, password = PASSWORD) => ({ formFields: [{ id: "email", value: email }, { id: "password", value: password }] });
  const lastMail = async (type: string, email: string) => {
    const body = await (await fetch(`${app.url}/_test/mails`)).text();
    const mails = JSON.parse(body) as Array<Record<string, any>>;
    if (!Array.isArray(mails)) throw new Error(`mails: ${body} ${app.errors()}`);
    const mail = mails.filter((m) => m.type === type && m.user.email === email).at(-1);
    const link = (mail?.emailVerifyLink ?? mail?.passwordResetLink) as string;
    return new URL(link).searchParams.get("token")!;
  };

  it("signs up, requires and verifies the address, refreshes, detects theft and signs out, all on authsvc's store", async () => {
    const email = "sdk-user@example.com";
    const up = await post("/auth/signup", form(email), undefined, "emailpassword");
    expect(up.status, JSON.stringify(up.json) + app.errors()).toBe(200);
    expect(up.json.status).toBe("OK");
    const userId = up.json.user.id as string;
    // The same person in authsvc: its API, hosted pages and dashboard see who the SDK created.
    expect((await getUser(t.app.ctx, userId))?.email).toBe(email);
    expect(up.json.user.loginMethods[0]).toMatchObject({ recipeId: "emailpassword", email, verified: false, tenantIds: ["public"] });
    let tokens = up.tokens;
    expect(jwtPayload(tokens.access)).toMatchObject({ sub: userId, "st-ev": { v: false } });

    // EmailVerification REQUIRED: the app refuses the session until the address is proven.
    expect((await get("/me", tokens)).status).toBe(403);
    expect((await post("/auth/user/email/verify/token", {}, tokens)).json.status).toBe("OK");
    const verified = await post("/auth/user/email/verify", { method: "token", token: await lastMail("EMAIL_VERIFICATION", email) }, tokens);
    expect(verified.json.status).toBe("OK");
    expect((await getUser(t.app.ctx, userId))?.verified).toBe(true);
    const isVerified = await get("/auth/user/email/verify", tokens);
    expect(isVerified.json).toMatchObject({ status: "OK", isVerified: true });
    tokens = isVerified.tokens;
    const me = await get("/me", tokens);
    expect(me.status, JSON.stringify(me.json)).toBe(200);
    expect(me.json.payload["st-ev"].v).toBe(true);
    expect((await get("/me-db", tokens)).status).toBe(200);

    // Refresh: the new access token carries its parent until authsvc promotes it (a verify call).
    const first = tokens;
    const r1 = await refresh(app.url, first);
    expect(r1.status).toBe(200);
    tokens = readTokens(r1, "header");
    expect(jwtPayload(tokens.access).parentRefreshTokenHash1).toBeDefined();
    const afterRefresh = await get("/me", tokens);
    expect(afterRefresh.status).toBe(200);
    tokens = afterRefresh.tokens;
    expect(jwtPayload(tokens.access).parentRefreshTokenHash1).toBeUndefined();

    // The old refresh token again: theft; the session is gone for the SDK's database check too.
    const stolen = await refresh(app.url, first);
    expect(stolen.status).toBe(401);
    expect(await stolen.json()).toMatchObject({ message: "token theft detected" });
    expect((await get("/me-db", tokens)).status).toBe(401);

    // Sign in again, then sign out: the session ends in authsvc's store.
    const signIn = await post("/auth/signin", form(email), undefined, "emailpassword");
    expect(signIn.json.status).toBe("OK");
    expect((await post("/auth/signin", form(email, "not the password 1"), undefined, "emailpassword")).json.status).toBe("WRONG_CREDENTIALS_ERROR");
    const session = signIn.tokens;
    expect((await get("/me-db", session)).status).toBe(200);
    expect((await post("/auth/signout", {}, session)).json.status).toBe("OK");
    expect((await get("/me-db", session)).status).toBe(401);
  });

  it("resets a password through the SDK's mail: the new one signs in, authsvc ends the old sessions", async () => {
    const email = "sdk-reset@example.com";
    const up = await post("/auth/signup", form(email), undefined, "emailpassword");
    expect(up.json.status).toBe("OK");
    expect((await post("/auth/user/password/reset/token", { formFields: [{ id: "email", value: email }] }, undefined, "emailpassword")).json.status).toBe("OK");
    const token = await lastMail("PASSWORD_RESET", email);
    const reset = await post("/auth/user/password/reset", { method: "token", token, formFields: [{ id: "password", value: "another long passphrase 7" }] }, undefined, "emailpassword");
    expect(reset.json, app.errors()).toMatchObject({ status: "OK" });
    expect((await post("/auth/signin", form(email, "another long passphrase 7"), undefined, "emailpassword")).json.status).toBe("OK");
    expect((await post("/auth/signin", form(email), undefined, "emailpassword")).json.status).toBe("WRONG_CREDENTIALS_ERROR");
    // The reset proved the address (the SDK verifies it), and every earlier session ended.
    expect((await getUser(t.app.ctx, up.json.user.id))?.verified).toBe(true);
    expect((await get("/me-db", up.tokens)).status).toBe(401);
  });

  it("puts roles in the token and keeps roles and metadata in authsvc's rooms; an operator's sign-out everywhere ends the SDK's sessions", async () => {
    const email = "sdk-roles@example.com";
    const up = await post("/auth/signup", form(email), undefined, "emailpassword");
    const userId = up.json.user.id as string;
    await post("/auth/user/email/verify/token", {}, up.tokens);
    await post("/auth/user/email/verify", { method: "token", token: await lastMail("EMAIL_VERIFICATION", email) }, up.tokens);
    let tokens = (await get("/auth/user/email/verify", up.tokens)).tokens;
    expect((await get("/admin-only", tokens)).status).toBe(403);
    const granted = await post("/grant", { role: "admin", permissions: ["write"] }, tokens);
    expect(granted.status, JSON.stringify(granted.json) + app.errors()).toBe(200);
    tokens = granted.tokens;
    expect(jwtPayload(tokens.access)).toMatchObject({ "st-role": { v: ["admin"] }, "st-perm": { v: ["write"] } });
    expect((await get("/admin-only", tokens)).status).toBe(200);
    expect(await getUserRoles(t.app.ctx, userId)).toMatchObject({ roles: ["admin"], permissions: ["write"] });

    const meta = await fetch(`${app.url}/metadata`, { method: "PUT", headers: { "content-type": "application/json", ...authHeaders(tokens) }, body: JSON.stringify({ theme: "dark" }) });
    expect(meta.status).toBe(200);
    expect((await getMetadata(t.app.ctx, userId))?.metadata).toEqual({ theme: "dark" });

    const out = await fetch(`${t.url}/admin/v1/users/${userId}/sessions`, { method: "DELETE", headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    expect(out.status).toBeLessThan(300);
    expect((await get("/me-db", tokens)).status).toBe(401);
    expect((await refresh(app.url, tokens)).status).toBe(401);
  });

  it("signs in with a provider: the SDK does the exchange, authsvc stores the identity; a second sign-in is the same user", async () => {
    idp.accounts.set("tp-user", { email: "sdk-tp@example.com", email_verified: true });
    const first = await signInWithProvider(app.url, "test", "tp-user", { "st-auth-mode": "header" });
    expect(first.res.status, JSON.stringify(first.json) + app.errors()).toBe(200);
    expect(first.json).toMatchObject({ status: "OK", createdNewRecipeUser: true });
    const userId = first.json.user.id as string;
    expect(first.json.user.thirdParty).toEqual([{ id: "test", userId: expect.any(String) }]);
    const seen = await getUser(t.app.ctx, userId);
    expect(seen).toMatchObject({ email: "sdk-tp@example.com", verified: true });
    const again = await signInWithProvider(app.url, "test", "tp-user", { "st-auth-mode": "header" });
    expect(again.json).toMatchObject({ status: "OK", createdNewRecipeUser: false, user: { id: userId } });
    // Verified by the provider: the app's REQUIRED verification lets the session through at once.
    const tokens = readTokens(again.res, "header");
    expect((await get("/me-db", tokens)).status).toBe(200);
  });
});
