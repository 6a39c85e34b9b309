import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCode } from "../../src/methods/totp/secrets.js";
import { listEvents } from "../../src/store/events.js";
import { backends } from "../helpers/backends.js";
import { startSdkApp } from "../helpers/sdk-app.js";
import { authHeaders, credentials, jwtPayload, modeHeaders, postJson, readTokens, type Tokens } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const KEY = "cdi-totp-key-0123456789-abcdefghijklmnop";
const APP = resolve(import.meta.dirname, "../fixtures/cdi/express-mfa-app.mjs");
const PASSWORD = "a long and unusual passphrase 42";
const STEP = 30_000;

/** The app's backend: a real Express app on supertokens-node 24 with TOTP and MultiFactorAuth, its core authsvc's /cdi. */
const startApp = (cdiUri: string) => startSdkApp(APP, { CDI_URI: cdiUri, CDI_API_KEY: KEY });

/**
 * An app's second factor through the SDK, its core authsvc: the TOTP routes of the CDI keep the
 * devices, codes and attempt limits in the store authsvc's own FDI and hosted pages use.
 */
describe.each(backends)("TOTP and MFA of a supertokens-node 24 app whose core is authsvc, on $name", (backend) => {
  let t: TestApp;
  let app: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    // TOTP secrets are stored sealed with the server secret.
    t = await createTestApp({ backend, config: { cdiApiKey: KEY, secret: "a server secret that is long enough for tests 0123456789" } });
    app = await startApp(`${t.url}/cdi`);
  });
  afterAll(async () => {
    app?.child.kill("SIGTERM");
    await t?.close();
  });

  const call = async (method: string, path: string, tokens?: Tokens, body?: unknown) => {
    const res = await fetch(app.url + path, { method, headers: { "content-type": "application/json", "st-auth-mode": "header", ...(tokens ? authHeaders(tokens) : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : {}) as Record<string, any>, tokens: tokens ? readTokens(res, "header", undefined, tokens) : readTokens(res, "header") };
  };
  const post = (path: string, body: unknown, tokens?: Tokens) => call("POST", path, tokens, body);
  const form = (email: string) => ({ formFields: [{ id: "email", value: email }, { id: "password", value: PASSWORD }] });
  const mfa = (tokens: Tokens) => jwtPayload(tokens.access)["st-mfa"] as { c: Record<string, number>; v: boolean };
  /** Straight to authsvc's CDI, as the SDK would (for what the SDK's frontend API does not expose). */
  const cdi = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${t.url}/cdi${path}`, { method, headers: { "api-key": KEY, "cdi-version": "5.4", "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, text: await res.clone().text(), json: res.status === 200 ? (await res.json()) as Record<string, any> : {} };
  };
  /** A sign-in at authsvc's own FDI (what its hosted pages do), not the app's. */
  const ownSignIn = async (email: string) => {
    const res = await postJson(`${t.url}/auth/signin`, credentials(email, PASSWORD), modeHeaders("header"));
    const json = (await res.json()) as Record<string, any>;
    return { json, tokens: readTokens(res, "header", json) };
  };
  const devicesInStore = async (userId: string) => t.app.ctx.store.db.selectFrom("totp_devices").select(["name", "verified_at"]).where("user_id", "=", userId).execute();

  /** Signs up through the app, sets up a device and verifies it; the secret and the session. */
  async function personWithTotp(email: string) {
    const up = await post("/auth/signup", form(email));
    expect(up.json.status, JSON.stringify(up.json) + app.errors()).toBe("OK");
    const device = await post("/auth/totp/device", { deviceName: "phone" }, up.tokens);
    expect(device.json, app.errors()).toMatchObject({ status: "OK", deviceName: "phone", secret: expect.stringMatching(/^[A-Z2-7]+=*$/) });
    const verified = await post("/auth/totp/device/verify", { deviceName: "phone", totp: generateCode(device.json.secret, t.clock.now()) }, device.tokens);
    expect(verified.json, app.errors()).toEqual({ status: "OK", wasAlreadyVerified: false });
    expect((await post("/require-totp", {}, verified.tokens)).status).toBe(200);
    return { userId: up.json.user.id as string, secret: device.json.secret as string, tokens: verified.tokens };
  }

  it("sets a device up through the SDK, in authsvc's store; the next sign-in needs its code, at the app and at authsvc itself", async () => {
    const email = "sdk-totp@example.com";
    const { userId, secret, tokens } = await personWithTotp(email);
    // Verifying completed the factor in the app's session.
    expect(mfa(tokens)).toMatchObject({ c: { emailpassword: expect.any(Number), totp: expect.any(Number) }, v: true });
    expect(await devicesInStore(userId)).toEqual([{ name: "phone", verified_at: expect.anything() }]);
    expect((await call("GET", "/auth/totp/device/list", tokens)).json).toEqual({ status: "OK", devices: [{ name: "phone", period: 30, skew: 1, verified: true }] });
    expect((await listEvents(t.app.ctx.store.db, { userId, type: "mfa.totp_enabled" })).length).toBe(1);

    // A new sign-in at the app: the session waits for the second factor.
    t.clock.advance(STEP);
    const signIn = await post("/auth/signin", form(email));
    expect(signIn.json.status).toBe("OK");
    expect(mfa(signIn.tokens).v).toBe(false);
    expect((await call("GET", "/me", signIn.tokens)).status).toBe(403);
    const wrong = await post("/auth/totp/verify", { totp: "000000" === generateCode(secret, t.clock.now()) ? "111111" : "000000" }, signIn.tokens);
    expect(wrong.json).toEqual({ status: "INVALID_TOTP_ERROR", currentNumberOfFailedAttempts: 1, maxNumberOfFailedAttempts: 5 });
    const right = await post("/auth/totp/verify", { totp: generateCode(secret, t.clock.now()) }, signIn.tokens);
    expect(right.json).toEqual({ status: "OK" });
    expect(mfa(right.tokens).v).toBe(true);
    expect((await call("GET", "/me", right.tokens)).status).toBe(200);
    // The same code once more: a replay, refused.
    const replay = await post("/auth/totp/verify", { totp: generateCode(secret, t.clock.now()) }, signIn.tokens);
    expect(replay.json).toMatchObject({ status: "INVALID_TOTP_ERROR", currentNumberOfFailedAttempts: 1 });

    // authsvc's own sign-in (its FDI, its hosted pages) asks for the same device's code.
    const own = await ownSignIn(email);
    expect(own.json.status).toBe("OK");
    expect(jwtPayload(own.tokens.access)["st-mfa"].v).toBe(false);
    t.clock.advance(STEP);
    const ownVerify = await fetch(`${t.url}/auth/totp/verify`, { method: "POST", headers: { "content-type": "application/json", ...authHeaders(own.tokens) }, body: JSON.stringify({ totp: generateCode(secret, t.clock.now()) }) });
    expect(await ownVerify.json()).toMatchObject({ status: "OK" });
  });

  it("counts wrong codes to the limit, then refuses even the right one until the cool-down is over", async () => {
    const email = "sdk-totp-limit@example.com";
    const { secret } = await personWithTotp(email);
    t.clock.advance(STEP);
    const signIn = await post("/auth/signin", form(email));
    const wrongCode = () => (generateCode(secret, t.clock.now()) === "123456" ? "654321" : "123456");
    for (let n = 1; n <= 5; n++) {
      expect((await post("/auth/totp/verify", { totp: wrongCode() }, signIn.tokens)).json).toEqual({ status: "INVALID_TOTP_ERROR", currentNumberOfFailedAttempts: n, maxNumberOfFailedAttempts: 5 });
    }
    const locked = await post("/auth/totp/verify", { totp: generateCode(secret, t.clock.now()) }, signIn.tokens);
    expect(locked.json).toEqual({ status: "LIMIT_REACHED_ERROR", retryAfterMs: 15 * 60_000, currentNumberOfFailedAttempts: 5, maxNumberOfFailedAttempts: 5 });
    expect(mfa(locked.tokens).v).toBe(false);
    expect((await call("GET", "/me", signIn.tokens)).status).toBe(403);
    // The same through the CDI directly: the lock-out is the person's, whoever asks.
    const direct = await cdi("POST", "/public/recipe/totp/verify", { userId: signIn.json.user.id, totp: generateCode(secret, t.clock.now()) });
    expect(direct.json).toEqual({ status: "LIMIT_REACHED_ERROR", retryAfterMs: 15 * 60_000, currentNumberOfFailedAttempts: 5, maxNumberOfFailedAttempts: 5 });
    t.clock.advance(15 * 60_000);
    const after = await post("/auth/totp/verify", { totp: generateCode(secret, t.clock.now()) }, signIn.tokens);
    expect(after.json).toEqual({ status: "OK" });
    expect((await call("GET", "/me", after.tokens)).status).toBe(200);
  });

  it("removes the device through the SDK: the second factor is off for the person everywhere", async () => {
    const email = "sdk-totp-remove@example.com";
    const { userId, tokens } = await personWithTotp(email);
    const removed = await post("/auth/totp/device/remove", { deviceName: "phone" }, tokens);
    expect(removed.json).toEqual({ status: "OK", didDeviceExist: true });
    expect(await devicesInStore(userId)).toEqual([]);
    expect((await post("/auth/totp/device/remove", { deviceName: "phone" }, tokens)).json).toEqual({ status: "OK", didDeviceExist: false });
    expect((await listEvents(t.app.ctx.store.db, { userId, type: "mfa.totp_disabled" })).length).toBe(1);
    // authsvc's own sign-in no longer asks for a second factor.
    const own = await ownSignIn(email);
    expect(jwtPayload(own.tokens.access)["st-mfa"].v).toBe(true);
  });

  it("answers the core's shapes for renaming, name clashes, unknown devices and bad input", async () => {
    const up = await post("/auth/signup", form("sdk-totp-cdi@example.com"));
    const userId = up.json.user.id as string;
    // The core's default names: "TOTP Device <verified devices>"; an unverified one of that name is replaced.
    const first = await cdi("POST", "/recipe/totp/device", { userId, skew: 1, period: 30 });
    expect(first.json).toEqual({ status: "OK", deviceName: "TOTP Device 0", secret: expect.any(String) });
    const again = await cdi("POST", "/recipe/totp/device", { userId, skew: 1, period: 30 });
    expect(again.json.deviceName).toBe("TOTP Device 0");
    expect(again.json.secret).not.toBe(first.json.secret);
    expect((await cdi("POST", "/public/recipe/totp/device/verify", { userId, deviceName: "nope", totp: "123456" })).json).toEqual({ status: "UNKNOWN_DEVICE_ERROR" });
    expect((await cdi("POST", "/public/recipe/totp/verify", { userId: "no-such-user", totp: "123456" })).json).toEqual({ status: "UNKNOWN_USER_ID_ERROR" });
    const ok = await cdi("POST", "/public/recipe/totp/device/verify", { userId, deviceName: "TOTP Device 0", totp: generateCode(again.json.secret, t.clock.now()) });
    expect(ok.json).toEqual({ status: "OK", wasAlreadyVerified: false });
    // Verified once, it stays so (the core does not check the code again).
    expect((await cdi("POST", "/public/recipe/totp/device/verify", { userId, deviceName: "TOTP Device 0", totp: "000000" })).json).toEqual({ status: "OK", wasAlreadyVerified: true });
    expect((await cdi("POST", "/recipe/totp/device", { userId, deviceName: "TOTP Device 0", skew: 1, period: 30 })).json).toEqual({ status: "DEVICE_ALREADY_EXISTS_ERROR" });
    const second = await cdi("POST", "/recipe/totp/device", { userId, skew: 0, period: 60 });
    expect(second.json.deviceName).toBe("TOTP Device 1");

    // Renaming keeps the secret working (it is sealed anew for the new name).
    expect((await cdi("PUT", "/recipe/totp/device", { userId, existingDeviceName: "TOTP Device 0", newDeviceName: "TOTP Device 1" })).json).toEqual({ status: "DEVICE_ALREADY_EXISTS_ERROR" });
    expect((await cdi("PUT", "/recipe/totp/device", { userId, existingDeviceName: "gone", newDeviceName: "x" })).json).toEqual({ status: "UNKNOWN_DEVICE_ERROR" });
    expect((await cdi("PUT", "/recipe/totp/device", { userId, existingDeviceName: "TOTP Device 0", newDeviceName: "laptop" })).json).toEqual({ status: "OK" });
    const list = (await cdi("GET", `/recipe/totp/device/list?userId=${userId}`)).json;
    expect(list.status).toBe("OK");
    expect(list.devices).toHaveLength(2);
    expect(list.devices).toEqual(expect.arrayContaining([
      { name: "laptop", period: 30, skew: 1, verified: true },
      { name: "TOTP Device 1", period: 60, skew: 0, verified: false },
    ]));
    t.clock.advance(STEP);
    expect((await cdi("POST", "/public/recipe/totp/verify", { userId, totp: generateCode(again.json.secret, t.clock.now()) })).json).toEqual({ status: "OK" });
    // The unverified device's codes do not count for sign-in.
    t.clock.advance(STEP);
    expect((await cdi("POST", "/public/recipe/totp/verify", { userId, totp: generateCode(second.json.secret, t.clock.now(), 60) })).json).toMatchObject({ status: "INVALID_TOTP_ERROR" });

    // Bad input: the core's 400s, nothing made.
    const bad = await cdi("POST", "/recipe/totp/device", { userId, deviceName: "x", skew: -1, period: 30 });
    expect([bad.status, bad.text]).toEqual([400, "skew should be non-negative\n"]);
    expect((await cdi("POST", "/recipe/totp/device", { userId, deviceName: "x", skew: 1, period: 0 })).status).toBe(400);
    expect((await cdi("POST", "/recipe/totp/device", { userId, deviceName: "x", skew: 1 })).status).toBe(400);
    const unknown = await cdi("POST", "/recipe/totp/device", { userId: "no-such-user", skew: 1, period: 30 });
    expect([unknown.status, unknown.text]).toEqual([400, "Unknown user ID provided\n"]);
    expect((await devicesInStore(userId)).map((d) => d.name).sort()).toEqual(["TOTP Device 1", "laptop"]);
  });
});
