import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, resolveConfig } from "../../src/config.js";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const KEY = "cdi-test-key-0123456789-abcdefghijklmnop";
const PASSWORD = "a test-mode passphrase 42";

/** As supertokens-node's test utilities and the SDK send them: no key, and the SDK's cdi-version. */
const call = (base: string, path: string, body?: unknown, headers: Record<string, string> = { "cdi-version": "5.4" }) => fetch(`${base}${path}`, {
  method: body === undefined ? "GET" : path.endsWith("/app/v2") ? "PUT" : "POST",
  headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
  body: body === undefined ? undefined : JSON.stringify(body),
});
const json = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json() as Promise<Record<string, any>>;
};

/** The CDI's test mode: the throwaway apps supertokens-node's own test suite makes (scripts/sdk-suite.mjs). */
describe.each(backends)("the CDI's test mode on $name", (backend) => {
  let t: TestApp;
  let off: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend, config: { cdiTestMode: true } });
    off = await createTestApp({ backend, config: { cdiApiKey: KEY } });
  });
  afterAll(async () => { await t?.close(); await off?.close(); });

  it("makes an app per test, each its own store: a user signed up in one is in no other and not in the server's", async () => {
    const cdi = `${t.url}/cdi`;
    expect(await json(await call(cdi, "/recipe/multitenancy/app/v2", { appId: "a-1", coreConfig: {} }, {}))).toEqual({ status: "OK", createdNew: true });
    expect(await json(await call(cdi, "/recipe/multitenancy/app/v2", { appId: "a-2" }, {}))).toEqual({ status: "OK", createdNew: true });
    expect(await json(await call(cdi, "/recipe/multitenancy/app/v2", { appId: "a-2", coreConfig: {} }, {}))).toEqual({ status: "OK", createdNew: false });

    const up = await json(await call(`${cdi}/appid-a-1`, "/public/recipe/signup", { email: "one@example.com", password: PASSWORD }));
    expect(up.status).toBe("OK");
    expect((await json(await call(`${cdi}/appid-a-1`, "/users/count"))).count).toBe(1);
    expect((await json(await call(`${cdi}/appid-a-2`, "/users/count"))).count).toBe(0);
    expect((await json(await call(cdi, "/users/count"))).count).toBe(0);
    // The same address signs up again in another app: nothing is shared.
    expect((await json(await call(`${cdi}/appid-a-2`, "/public/recipe/signup", { email: "one@example.com", password: PASSWORD }))).status).toBe("OK");
    const signIn = await json(await call(`${cdi}/appid-a-1`, "/public/recipe/signin", { email: "one@example.com", password: PASSWORD }));
    expect(signIn.user.id).toBe(up.user.id);

    // Each app signs with keys of its own.
    const moduli = async (base: string) => ((await json(await fetch(`${base}/.well-known/jwks.json`))).keys as Array<{ n: string }>).map((k) => k.n);
    const [one, two] = [await moduli(`${cdi}/appid-a-1`), await moduli(`${cdi}/appid-a-2`)];
    expect(one.length).toBeGreaterThan(0);
    expect(one.filter((k) => two.includes(k))).toEqual([]);

    expect(await json(await call(cdi, "/recipe/multitenancy/app/remove", { appId: "a-1" }, {}))).toEqual({ status: "OK", didExist: true });
    expect(await json(await call(cdi, "/recipe/multitenancy/app/remove", { appId: "a-1" }, {}))).toEqual({ status: "OK", didExist: false });
    const gone = await call(`${cdi}/appid-a-1`, "/users/count");
    expect(gone.status).toBe(400);
    expect(await gone.text()).toMatch(/^AppId or tenantId not found/);
  });

  it("applies the app's coreConfig: its API key, its access-token lifetime", async () => {
    const cdi = `${t.url}/cdi`;
    await json(await call(cdi, "/recipe/multitenancy/app/v2", { appId: "keyed", coreConfig: { api_keys: KEY, access_token_validity: 2 } }, {}));
    const app = `${cdi}/appid-keyed`;
    const without = await call(app, "/users/count");
    expect([without.status, await without.text()]).toEqual([401, "Invalid API key\n"]);
    const up = await json(await call(app, "/public/recipe/signup", { email: "keyed@example.com", password: PASSWORD }, { "cdi-version": "5.4", "api-key": KEY }));
    const session = await json(await call(app, "/public/recipe/session", { userId: up.user.id, userDataInJWT: {}, userDataInDatabase: {}, useDynamicSigningKey: true, enableAntiCsrf: false }, { "cdi-version": "5.4", "api-key": KEY }));
    expect(session.accessToken.expiry - session.accessToken.createdTime).toBe(2000);

    const bad = await call(cdi, "/recipe/multitenancy/app/v2", { appId: "bad", coreConfig: { access_token_validity: "soon" } }, {});
    expect(bad.status).toBe(400);
    expect((await call(`${cdi}/appid-bad`, "/users/count")).status).toBe(400);
  });

  it("is off unless asked for: the app routes are 404 and an unknown app 400 with only the API key set", async () => {
    const res = await call(`${off.url}/cdi`, "/recipe/multitenancy/app/v2", { appId: "nope" }, { "api-key": KEY });
    expect([res.status, await res.text()]).toEqual([404, "Not found\n"]);
    expect((await call(`${off.url}/cdi`, "/users/count")).status).toBe(401);
    const unknown = await call(`${off.url}/cdi/appid-nope`, "/users/count", undefined, { "cdi-version": "5.4", "api-key": KEY });
    expect([unknown.status, (await unknown.text()).startsWith("AppId or tenantId not found")]).toEqual([400, true]);
  });
});

describe("the CDI's test mode: where it is refused", () => {
  it("is refused in production mode", () => {
    const env = {
      AUTHSVC_MODE: "production", AUTHSVC_PUBLIC_URL: "https://auth.example.com", AUTHSVC_SMTP_URL: "smtps://smtp.example.com:465",
      AUTHSVC_SECRET: "s3cr3t-value-that-is-long-enough-0123456789", AUTHSVC_MAIL_FROM: "Example <no-reply@example.com>", AUTHSVC_WEBSITE_URL: "https://app.example.com",
    };
    expect(resolveConfig({ env }).config.cdiTestMode).toBe(false);
    expect(() => resolveConfig({ env: { ...env, AUTHSVC_CDI_TEST_MODE: "1" } })).toThrow(ConfigError);
    expect(() => resolveConfig({ env: { ...env, AUTHSVC_CDI_TEST_MODE: "1" } })).toThrow(/refused in production/);
  });
  it("needs one process (its apps live in it): refused with more than one worker", () => {
    expect(() => resolveConfig({ env: { AUTHSVC_CDI_TEST_MODE: "1", AUTHSVC_WORKERS: "2" } })).toThrow(/--workers 1/);
    expect(resolveConfig({ env: { AUTHSVC_CDI_TEST_MODE: "1", AUTHSVC_WORKERS: "1" } }).config.cdiTestMode).toBe(true);
  });
});
