import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCode } from "../../src/methods/totp/secrets.js";
import { listEvents } from "../../src/store/events.js";
import { backends } from "../helpers/backends.js";
import { pwPost, startFlow } from "../helpers/passwordless.js";
import { authHeaders, postWithSession, readTokens, refresh, signUp, type Tokens } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/**
 * Finding 5 of the sign-in hardening: a page on another origin of the same site (a sibling
 * subdomain: SameSite=Lax cookies go along) POSTs with the victim's cookies. It can send an empty
 * body, a form or text/plain, never a custom header or a JSON content type without a preflight.
 * Every such state change is refused with 403 and changes nothing; the SDKs' own calls still work.
 */
const FORBIDDEN = { message: "A request authenticated by cookies must carry the rid header (the SuperTokens SDKs send it) or a JSON content type." };
const attacker = (t: Tokens, extra: Record<string, string> = {}) => ({ cookie: `sAccessToken=${t.access}`, origin: "http://evil.localhost:3000", ...extra });

describe.each(backends)("cross-origin state changes with cookies ($name)", (backend) => {
  let t: TestApp;
  let n = 0;
  const fresh = (what: string) => `${what}${++n}-${backend.name}@example.com`;
  beforeAll(async () => {
    t = await createTestApp({ backend, start: true, config: { mailCatcher: true, mailCatcherPort: 0, secret: "a server secret that is long enough for tests 0123456789" } });
  });
  afterAll(async () => { await t?.close(); });

  const attack = async (path: string, tokens: Tokens, init: { body?: string; headers?: Record<string, string> } = {}) => {
    const res = await fetch(`${t.url}/auth${path}`, { method: "POST", headers: attacker(tokens, init.headers), body: init.body });
    return { status: res.status, body: await res.json() };
  };
  const sessionAlive = async (tokens: Tokens) => (await fetch(`${t.url}/auth/account/sessions`, { headers: authHeaders(tokens) })).status === 200;

  it("sign-out: an empty body, a form or text/plain from another origin is refused and the session lives on; rid or JSON signs out", async () => {
    const { tokens } = await signUp(t.url, fresh("out"), "cookie");
    expect(await attack("/signout", tokens)).toEqual({ status: 403, body: FORBIDDEN });
    expect(await attack("/signout", tokens, { body: "a=b", headers: { "content-type": "application/x-www-form-urlencoded" } })).toEqual({ status: 403, body: FORBIDDEN });
    expect(await attack("/signout", tokens, { body: "{}", headers: { "content-type": "text/plain" } })).toEqual({ status: 403, body: FORBIDDEN });
    expect(await sessionAlive(tokens)).toBe(true);
    expect((await refresh(t.url, tokens)).status).toBe(200);
    // What the SDKs send: rid (any value), or a JSON content type with an empty body.
    const other = (await signUp(t.url, fresh("out"), "cookie")).tokens;
    expect((await fetch(`${t.url}/auth/signout`, { method: "POST", headers: attacker(other, { "content-type": "application/json" }) })).status).toBe(200);
    expect(await attack("/signout", (await signUp(t.url, fresh("out"), "cookie")).tokens, { headers: { rid: "anti-csrf" } })).toEqual({ status: 200, body: { status: "OK" } });
  });

  it("session refresh with the refresh cookie needs rid or JSON too", async () => {
    const { tokens } = await signUp(t.url, fresh("refresh"), "cookie");
    const res = await fetch(`${t.url}/auth/session/refresh`, { method: "POST", headers: { cookie: `sRefreshToken=${tokens.refresh}`, origin: "http://evil.localhost:3000" } });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await refresh(t.url, tokens)).status).toBe(200);
  });

  it("account deletion of a person without a password (an empty body is all it takes) is refused", async () => {
    const email = fresh("nopassword");
    const f = await startFlow(t, email);
    const signedIn = await pwPost(t, "/signinup/code/consume", { preAuthSessionId: f.preAuthSessionId, deviceId: f.deviceId, userInputCode: f.code }, { "st-auth-mode": "cookie" });
    expect(signedIn.json.status).toBe("OK");
    const tokens = readTokens(signedIn.res, "cookie");
    expect(await attack("/account/delete", tokens)).toEqual({ status: 403, body: FORBIDDEN });
    expect((await listEvents(t.app.store.db)).filter((e) => e.type === "user.deletion_scheduled" && e.user_id === signedIn.json.user.id)).toEqual([]);
    expect(await sessionAlive(tokens)).toBe(true);
  });

  it("new recovery codes are refused from another origin: the old ones keep working", async () => {
    const up = await signUp(t.url, fresh("totp"), "cookie");
    const dev = await postWithSession(t.url, "/totp/device", up.tokens, {});
    const verified = await postWithSession(t.url, "/totp/device/verify", up.tokens, { deviceName: dev.json.deviceName, totp: generateCode(dev.json.secret, t.clock.now()) });
    expect(verified.json.status).toBe("OK");
    const tokens = verified.tokens!;
    const before = await t.app.store.db.selectFrom("mfa_recovery_codes").select("code_hash").where("user_id", "=", (up.json.user as { id: string }).id).orderBy("code_hash").execute();
    expect(await attack("/totp/recovery-codes", tokens)).toEqual({ status: 403, body: FORBIDDEN });
    expect(await t.app.store.db.selectFrom("mfa_recovery_codes").select("code_hash").where("user_id", "=", (up.json.user as { id: string }).id).orderBy("code_hash").execute()).toEqual(before);
    // The SDK's call (rid) still makes a new set.
    expect((await postWithSession(t.url, "/totp/recovery-codes", tokens)).json.status).toBe("OK");
  });

  it("header mode is not cookie-authenticated: a Bearer request without rid or a body is served", async () => {
    const { tokens } = await signUp(t.url, fresh("bearer"), "header");
    const res = await fetch(`${t.url}/auth/signout`, { method: "POST", headers: { authorization: `Bearer ${tokens.access}` } });
    expect(res.status).toBe(200);
  });

  it("a cookie GET reads as before (no state change)", async () => {
    const { tokens } = await signUp(t.url, fresh("get"), "cookie");
    expect((await fetch(`${t.url}/auth/account/sessions`, { headers: attacker(tokens) })).status).toBe(200);
  });
});
