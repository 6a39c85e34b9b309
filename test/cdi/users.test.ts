import { createPublicKey, verify } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getUser } from "../../src/core/users.js";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const KEY = "cdi-users-key-0123456789-abcdefghijklmnop";
const PASSWORD = "a long and unusual passphrase 42";

/** The CDI's user routes, email-password, email verification, linking and JWT, request by request. */
describe.each(backends)("the CDI's users on $name", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend, config: { cdiApiKey: KEY } }); });
  afterAll(async () => { await t?.close(); });

  const call = async (path: string, body?: unknown, method = body === undefined ? "GET" : "POST", rid?: string) => {
    const res = await fetch(`${t.url}/cdi${path}`, {
      method, headers: { "api-key": KEY, "cdi-version": "5.4", ...(rid ? { rid } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, json: (res.status === 200 ? JSON.parse(text) : {}) as Record<string, any> };
  };
  const signUp = async (email: string) => (await call("/public/recipe/signup", { email, password: PASSWORD })).json;

  it("signs up and in with the core's User object, refuses a taken address, and answers an authsvc password refusal with a 400 naming why", async () => {
    const up = await signUp("Users-One@Example.com");
    expect(up.status).toBe("OK");
    const id = up.user.id as string;
    expect(up.recipeUserId).toBe(id);
    expect(up.user).toMatchObject({
      id, isPrimaryUser: false, tenantIds: ["public"], emails: ["users-one@example.com"], phoneNumbers: [], thirdParty: [],
      loginMethods: [{ recipeId: "emailpassword", recipeUserId: id, tenantIds: ["public"], email: "users-one@example.com", verified: false, timeJoined: expect.any(Number) }],
    });
    expect((await signUp("users-one@example.com")).status).toBe("EMAIL_ALREADY_EXISTS_ERROR");
    expect((await call("/public/recipe/signin", { email: "users-one@example.com", password: PASSWORD })).json).toMatchObject({ status: "OK", user: { id } });
    expect((await call("/public/recipe/signin", { email: "users-one@example.com", password: "wrong" })).json).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
    const weak = await call("/public/recipe/signup", { email: "weak@example.com", password: "short" });
    expect(weak.status).toBe(400);
    expect(weak.text).toMatch(/^Refused by authsvc: password: /);
    expect(await getUser(t.app.ctx, id)).toMatchObject({ email: "users-one@example.com" });
  });

  it("keeps the address's failed sign-in budget: past the free failures even the right password waits", async () => {
    await signUp("budget@example.com");
    const signIn = (password: string) => call("/public/recipe/signin", { email: "budget@example.com", password });
    for (let i = 0; i < t.config.limitSigninFreeFailures + 1; i++) expect((await signIn("wrong")).json.status).toBe("WRONG_CREDENTIALS_ERROR");
    expect((await signIn(PASSWORD)).json.status).toBe("WRONG_CREDENTIALS_ERROR");
    t.clock.advance(t.config.limitSigninMaxDelayMs);
    expect((await signIn(PASSWORD)).json.status).toBe("OK");
  });

  it("finds users by id, by address and in pages, counts and removes them", async () => {
    const a = (await signUp("page-a@example.com")).user.id as string;
    const b = (await signUp("page-b@example.com")).user.id as string;
    expect((await call(`/user/id?userId=${a}`)).json).toMatchObject({ status: "OK", user: { id: a } });
    expect((await call("/user/id?userId=nobody")).json).toEqual({ status: "UNKNOWN_USER_ID_ERROR" });
    expect((await call("/public/users/by-accountinfo?email=PAGE-B%40example.com&doUnionOfAccountInfo=true")).json.users.map((u: { id: string }) => u.id)).toEqual([b]);
    expect((await call("/public/users/by-accountinfo?email=none%40example.com")).json.users).toEqual([]);
    const count = (await call("/public/users/count")).json.count as number;
    const first = await call("/public/users?limit=1");
    expect(first.json.users).toHaveLength(1);
    expect(first.json.nextPaginationToken).toEqual(expect.any(String));
    const all: string[] = [];
    let token: string | undefined;
    do {
      const page = await call(`/public/users?limit=2${token ? `&paginationToken=${encodeURIComponent(token)}` : ""}`);
      all.push(...page.json.users.map((u: { id: string }) => u.id));
      token = page.json.nextPaginationToken;
    } while (token);
    expect(all).toHaveLength(count);
    expect(all).toEqual(expect.arrayContaining([a, b]));
    // Newest first (timeJoinedOrder=DESC), in pages too: the same people the other way round.
    const newest: string[] = [];
    token = undefined;
    do {
      const page = await call(`/public/users?limit=2&timeJoinedOrder=DESC${token ? `&paginationToken=${encodeURIComponent(token)}` : ""}`);
      newest.push(...page.json.users.map((u: { id: string }) => u.id));
      token = page.json.nextPaginationToken;
    } while (token);
    expect(newest).toEqual([...all].reverse());
    expect((await call("/public/users?timeJoinedOrder=SIDEWAYS")).status).toBe(400);
    // In the core's words, which the SDK passes on.
    const garbage = await call("/public/users?paginationToken=garbage");
    expect([garbage.status, garbage.text]).toEqual([400, "invalid pagination token\n"]);
    const negative = await call("/public/users?limit=-1");
    expect([negative.status, negative.text]).toEqual([400, "limit must a positive integer with min value 1\n"]);
    expect((await call("/user/remove", { userId: a })).json).toEqual({ status: "OK" });
    expect(await getUser(t.app.ctx, a)).toBeUndefined();
    expect((await call("/public/users/count")).json.count).toBe(count - 1);
  });

  it("verifies an address with a token the SDK mails itself, and unverifies it", async () => {
    const id = (await signUp("verify@example.com")).user.id as string;
    const q = `/recipe/user/email/verify?userId=${id}&email=verify%40example.com`;
    expect((await call(q)).json).toEqual({ status: "OK", isVerified: false });
    const token = (await call("/public/recipe/user/email/verify/token", { userId: id, email: "verify@example.com" })).json.token as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await call("/public/recipe/user/email/verify", { method: "token", token: "not-a-token" })).json.status).toBe("EMAIL_VERIFICATION_INVALID_TOKEN_ERROR");
    expect((await call("/public/recipe/user/email/verify", { method: "token", token })).json).toEqual({ status: "OK", userId: id, email: "verify@example.com" });
    expect((await call("/public/recipe/user/email/verify", { method: "token", token })).json.status).toBe("EMAIL_VERIFICATION_INVALID_TOKEN_ERROR");
    expect((await call(q)).json.isVerified).toBe(true);
    expect((await call("/public/recipe/user/email/verify/token", { userId: id, email: "verify@example.com" })).json).toEqual({ status: "EMAIL_ALREADY_VERIFIED_ERROR" });
    expect((await call("/recipe/user/email/verify/remove", { userId: id, email: "verify@example.com" })).json.status).toBe("OK");
    expect((await call(q)).json.isVerified).toBe(false);
  });

  it("makes and consumes a reset token once; a new password through PUT /recipe/user signs in, an address change is refused in the protocol's words", async () => {
    const id = (await signUp("reset@example.com")).user.id as string;
    expect((await call("/public/recipe/user/password/reset/token", { userId: "nobody", email: "x@example.com" })).json).toEqual({ status: "UNKNOWN_USER_ID_ERROR" });
    const token = (await call("/public/recipe/user/password/reset/token", { userId: id, email: "reset@example.com" })).json.token as string;
    expect((await call("/public/recipe/user/password/reset/token/consume", { method: "token", token })).json).toEqual({ status: "OK", userId: id, email: "reset@example.com" });
    expect((await call("/public/recipe/user/password/reset/token/consume", { method: "token", token })).json).toEqual({ status: "RESET_PASSWORD_INVALID_TOKEN_ERROR" });
    expect((await call("/recipe/user", { recipeUserId: id, password: "another long passphrase 7" }, "PUT", "emailpassword")).json).toEqual({ status: "OK" });
    expect((await call("/public/recipe/signin", { email: "reset@example.com", password: "another long passphrase 7" })).json.status).toBe("OK");
    expect((await call("/recipe/user", { recipeUserId: id, password: "short" }, "PUT", "emailpassword")).json.status).toBe("PASSWORD_POLICY_VIOLATED_ERROR");
    expect((await call("/recipe/user", { recipeUserId: id, email: "moved@example.com" }, "PUT", "emailpassword")).json.status).toBe("EMAIL_CHANGE_NOT_ALLOWED_ERROR");
    expect((await call("/recipe/user", { recipeUserId: "nobody", password: "x" }, "PUT", "emailpassword")).json.status).toBe("UNKNOWN_USER_ID_ERROR");
    expect((await call("/recipe/user", { recipeUserId: id }, "PUT", "passwordless")).status).toBe(400);
  });

  it("links and unlinks logins as authsvc's persons, and answers the public tenant", async () => {
    const a = (await signUp("link-a@example.com")).user.id as string;
    const b = (await signUp("link-b@example.com")).user.id as string;
    expect((await call(`/recipe/accountlinking/user/primary/check?recipeUserId=${a}`)).json).toEqual({ status: "OK", wasAlreadyAPrimaryUser: false });
    expect((await call(`/recipe/accountlinking/user/link/check?recipeUserId=${b}&primaryUserId=${a}`)).json).toEqual({ status: "OK", accountsAlreadyLinked: false });
    const linked = await call("/recipe/accountlinking/user/link", { recipeUserId: b, primaryUserId: a });
    expect(linked.json).toMatchObject({ status: "OK", accountsAlreadyLinked: false, user: { id: a, isPrimaryUser: true } });
    expect(linked.json.user.loginMethods.map((m: { recipeUserId: string }) => m.recipeUserId).sort()).toEqual([a, b].sort());
    expect((await call(`/recipe/accountlinking/user/primary/check?recipeUserId=${b}`)).json).toMatchObject({ status: "RECIPE_USER_ID_ALREADY_LINKED_WITH_PRIMARY_USER_ID_ERROR", primaryUserId: a });
    expect((await call(`/user/id?userId=${b}`)).json.user.id).toBe(a);
    expect((await call("/recipe/accountlinking/user/unlink", { recipeUserId: b })).json).toEqual({ status: "OK", wasRecipeUserDeleted: false, wasLinked: true });
    expect((await call(`/user/id?userId=${b}`)).json.user.id).toBe(b);
    expect((await call("/public/recipe/multitenancy/tenant/v2")).json).toEqual({ status: "OK", tenantId: "public", thirdParty: { providers: [] }, coreConfig: {} });
  });

  it("creates a JWT the JWKS verifies", async () => {
    const r = await call("/recipe/jwt", { payload: { hello: "world" }, validity: 60, useStaticSigningKey: false, algorithm: "RS256", jwksDomain: "https://api.example.com" });
    expect(r.json.status).toBe("OK");
    const [h, p, s] = (r.json.jwt as string).split(".");
    const header = JSON.parse(Buffer.from(h, "base64url").toString());
    const { keys } = await (await fetch(`${t.url}/cdi/.well-known/jwks.json`)).json() as { keys: Array<Record<string, string>> };
    const jwk = keys.find((k) => k.kid === header.kid)!;
    expect(verify("RSA-SHA256", Buffer.from(`${h}.${p}`), createPublicKey({ key: jwk, format: "jwk" }), Buffer.from(s, "base64url"))).toBe(true);
    expect(JSON.parse(Buffer.from(p, "base64url").toString())).toMatchObject({ hello: "world", iss: "https://api.example.com" });
    expect((await call("/recipe/jwt", { payload: {}, validity: 60, algorithm: "HS256" })).json).toEqual({ status: "UNSUPPORTED_ALGORITHM_ERROR" });
  });
});
