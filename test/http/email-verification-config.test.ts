import { afterEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { eventually, startRelay } from "../helpers/mail.js";
import { postWithSession, credentials, jwtPayload, postJson, signUp, type Tokens } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import type { Config } from "../../src/config.js";

const verifyBody = (token: unknown) => ({ method: "token", token });

describe.each(backends)("email verification settings over HTTP ($name)", (backend) => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });
  async function app(config: Partial<Config>): Promise<TestApp> {
    const t = await createTestApp({ backend, config, start: true });
    cleanup.push(() => t.close());
    return t;
  }

  it("production mode: no token in any response; the mail reaches the SMTP relay and its token verifies", async () => {
    const relay = await startRelay();
    cleanup.push(() => relay.close());
    const t = await app({
      mode: "production", publicUrl: "https://auth.example.com", websiteUrl: "https://app.example.com",
      smtpUrl: relay.url, secret: "s".repeat(40), mailCatcher: false,
    });
    for (const mode of ["cookie", "header"] as const) {
      const email = `prod-${mode}@example.com`;
      const up = await signUp(t.url, email, mode);
      expect(up.json.status).toBe("OK");
      const req = await postWithSession(t.url, "/user/email/verify/token", up.tokens);
      expect(req.json).toEqual({ status: "OK" });
      expect(req.res.headers.get("cache-control")).toBe("no-store");
      await eventually(async () => relay.messages.some((m) => m.to.includes(email)));
      const mail = relay.messages.find((m) => m.to.includes(email))!;
      expect(mail.headers.get("x-authsvc-action")).toBe("verify-email");
      const token = /verify-email\?token=([A-Za-z0-9_-]+)&tenantId=public/.exec(mail.text)![1];
      expect(mail.text).toContain(`https://app.example.com/auth/verify-email?token=${token}&tenantId=public`);
      const ok = await postWithSession(t.url, "/user/email/verify", up.tokens, verifyBody(token));
      expect(ok.json).toEqual({ status: "OK" });
      expect(jwtPayload(ok.tokens!.access)["st-ev"]).toMatchObject({ v: true });
      expect(await (await fetch(`${t.url}/auth/user/email/verify`, { headers: { authorization: `Bearer ${ok.tokens!.access}` } })).json()).toEqual({ status: "OK", isVerified: true });
      expect((await postWithSession(t.url, "/user/email/verify/token", ok.tokens)).json).toEqual({ status: "EMAIL_ALREADY_VERIFIED_ERROR" });
    }
    // The reset token endpoint too (seed #6).
    const reset = await postJson(`${t.url}/auth/user/password/reset/token`, { formFields: [{ id: "email", value: "prod-cookie@example.com" }] });
    expect(await reset.json()).toEqual({ status: "OK" });
  });

  it("token-only verification (emailVerificationRequiresSession off): no session is fine, an expired one is 401 try refresh token", async () => {
    const t = await app({ emailVerificationRequiresSession: false });
    const ada = await signUp(t.url, "ada-link@example.com", "header");
    const eve = await signUp(t.url, "eve-link@example.com", "header");
    const first = (await postWithSession(t.url, "/user/email/verify/token", ada.tokens)).json.token as string;
    // Another user's session present: the token is not theirs, so it is refused (and not burnt).
    expect((await postWithSession(t.url, "/user/email/verify", eve.tokens, verifyBody(first))).json).toEqual({ status: "EMAIL_VERIFICATION_INVALID_TOKEN_ERROR" });
    // Opened on another device, with no session at all: verifies, and no token is issued.
    const anon = await postWithSession(t.url, "/user/email/verify", undefined, verifyBody(first));
    expect(anon.json).toEqual({ status: "OK" });
    expect(anon.res.headers.get("front-token")).toBeNull();

    const bo = await signUp(t.url, "bo-link@example.com", "header");
    const second = (await postWithSession(t.url, "/user/email/verify/token", bo.tokens)).json.token as string;
    t.clock.advance(t.config.accessTokenLifetimeMs + 61_000); // past exp and its 60 s leeway
    const expired = await postWithSession(t.url, "/user/email/verify", bo.tokens, verifyBody(second));
    expect([expired.res.status, expired.json]).toEqual([401, { message: "try refresh token" }]);
    // seed #4 still needs a session whatever the setting.
    expect((await postWithSession(t.url, "/user/email/verify/token", undefined, undefined, { rid: "emailverification" })).res.status).toBe(401);
    expect((await postWithSession(t.url, "/user/email/verify", undefined, verifyBody(second))).json).toEqual({ status: "OK" });
  });

  it("SameSite=None: a cookie-authenticated POST without the rid header is 401 try refresh token (anti-CSRF)", async () => {
    const t = await app({ publicUrl: "https://api.example.com", websiteUrl: "https://app.example.org" });
    const res = await postJson(`${t.url}/auth/signup`, credentials("cy-csrf@example.com"), { rid: "emailpassword" });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("sAccessToken="))!;
    expect(cookie).toContain("SameSite=None");
    const access = decodeURIComponent(cookie.split(";")[0].slice("sAccessToken=".length));
    const noRid = await fetch(`${t.url}/auth/user/email/verify/token`, { method: "POST", headers: { cookie: `sAccessToken=${access}` } });
    expect([noRid.status, await noRid.json()]).toEqual([401, { message: "try refresh token" }]);
    const cookieTokens: Tokens = { mode: "cookie", access, refresh: "" };
    const withRid = await postWithSession(t.url, "/user/email/verify/token", cookieTokens);
    expect(withRid.json.status).toBe("OK");
    const noRidVerify = await fetch(`${t.url}/auth/user/email/verify`, { method: "POST", headers: { cookie: `sAccessToken=${access}`, "content-type": "application/json" }, body: JSON.stringify(verifyBody(withRid.json.token)) });
    expect(noRidVerify.status).toBe(401);
    expect((await postWithSession(t.url, "/user/email/verify", cookieTokens, verifyBody(withRid.json.token))).json).toEqual({ status: "OK" });
  });
});
