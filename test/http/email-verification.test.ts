import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { startCli, waitForCaughtMail } from "../helpers/mail.js";
import { authHeaders, postWithSession, decodeFrontToken, jwtPayload, readTokens, refresh, setCookies, signUp, type Mode, type Tokens } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { createLogger } from "../../src/util/logger.js";
import { countUserTokens } from "../../src/store/one-time-tokens.js";

const verifyBody = (token: unknown) => ({ method: "token", token });

describe.each(backends)("email verification over HTTP and SMTP ($name)", (backend) => {
  let t: TestApp;
  const logLines: string[] = [];
  beforeAll(async () => {
    // Development mode, the built-in catcher on a free port, and every log line kept: no token may appear in one.
    t = await createTestApp({ backend, config: { mode: "development", mailCatcher: true, mailCatcherPort: 0 }, start: true, logger: createLogger("debug", (l) => logLines.push(l)) });
  });
  afterAll(async () => { await t?.close(); });

  const status = (tokens: Tokens) => fetch(`${t.url}/auth/user/email/verify`, { headers: authHeaders(tokens) });

  describe.each(["cookie", "header", "body"] as Mode[])("%s mode", (mode) => {
    it("sign-up → request → mail in the catcher → tail-mail --wait prints the token → verified once, st-ev re-issued true", async () => {
      const email = `ev-${mode}@example.com`;
      const up = await signUp(t.url, email, mode);
      expect(up.json.status).toBe("OK");
      expect(jwtPayload(up.tokens.access)["st-ev"]).toMatchObject({ v: false });

      // tail-mail --wait only counts mail that arrives after it started: start it first.
      const waiter = startCli(["tail-mail", "--wait", "--to", email, "--action", "verify-email", "--timeout", "20", "--database", t.config.database]);
      await waiter.stderrMatches(/waiting for new mail/);
      const req = await postWithSession(t.url, "/user/email/verify/token", up.tokens);
      expect(req.res.status).toBe(200);
      expect(req.res.headers.get("cache-control")).toBe("no-store");
      expect(req.json).toEqual({ status: "OK", token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) }); // development mode only
      expect(req.res.headers.get("front-token")).toBeNull(); // the claim already said false
      const tail = await waiter.done;
      expect(tail.code, tail.stderr).toBe(0);
      const token = tail.stdout.trim();
      expect(token).toBe(req.json.token);
      const mail = await waitForCaughtMail(t.app, email, { action: "verify-email" });
      expect(mail.link).toBe(`${t.config.websiteUrl}${t.config.websiteBasePath}/verify-email?token=${token}&tenantId=public`);
      expect(mail.expiresAt).toBe(new Date(t.clock.now() + 86_400_000).toISOString());

      const ok = await postWithSession(t.url, "/user/email/verify", up.tokens, verifyBody(token));
      expect(ok.res.status).toBe(200);
      expect(ok.json.status).toBe("OK");
      expect(ok.json).not.toHaveProperty("user");
      expect(Object.keys(ok.json).sort()).toEqual(mode === "body" ? ["accessToken", "accessTokenExpiresAt", "status"] : ["status"]);
      // The access token is re-issued in the mode it came in, with st-ev true; the refresh token is untouched.
      const front = decodeFrontToken(ok.res.headers.get("front-token")!);
      expect(front.up["st-ev"]).toMatchObject({ v: true });
      expect(ok.tokens!.access).not.toBe(up.tokens.access);
      expect(jwtPayload(ok.tokens!.access)["st-ev"]).toMatchObject({ v: true });
      expect(jwtPayload(ok.tokens!.access).sessionHandle).toBe(jwtPayload(up.tokens.access).sessionHandle);
      if (mode === "cookie") expect(Object.keys(setCookies(ok.res))).toEqual(["sAccessToken"]);
      if (mode === "header") expect(ok.res.headers.get("st-refresh-token")).toBeNull();

      // GET agrees with the new token and signs nothing; the old token gets corrected.
      const fresh = await status(ok.tokens!);
      expect(await fresh.json()).toEqual({ status: "OK", isVerified: true });
      expect(fresh.headers.get("front-token")).toBeNull();
      const stale = await status(up.tokens);
      expect(await stale.json()).toMatchObject({ status: "OK", isVerified: true });
      expect(decodeFrontToken(stale.headers.get("front-token")!).up["st-ev"]).toMatchObject({ v: true });

      // Single use, and nothing more to verify.
      const again = await postWithSession(t.url, "/user/email/verify", ok.tokens, verifyBody(token));
      expect(again.json).toEqual({ status: "EMAIL_VERIFICATION_INVALID_TOKEN_ERROR" });
      const done = await postWithSession(t.url, "/user/email/verify/token", ok.tokens);
      expect(done.json).toEqual({ status: "EMAIL_ALREADY_VERIFIED_ERROR" });
      expect(done.res.headers.get("front-token")).toBeNull(); // claim already true
      // With the old token (st-ev false) the answer also corrects the claim.
      const doneOld = await postWithSession(t.url, "/user/email/verify/token", up.tokens);
      expect(doneOld.json.status).toBe("EMAIL_ALREADY_VERIFIED_ERROR");
      expect(jwtPayload(doneOld.tokens!.access)["st-ev"]).toMatchObject({ v: true });
      expect(decodeFrontToken(doneOld.res.headers.get("front-token")!).up["st-ev"]).toMatchObject({ v: true });

      for (const line of logLines) expect(line).not.toContain(token);
    });
  });

  it("refuses another user's token without burning it; the owner can still use it", async () => {
    const ada = await signUp(t.url, "ada-other@example.com", "header");
    const eve = await signUp(t.url, "eve-other@example.com", "header");
    const req = await postWithSession(t.url, "/user/email/verify/token", ada.tokens);
    const stolen = await postWithSession(t.url, "/user/email/verify", eve.tokens, verifyBody(req.json.token));
    expect(stolen.json).toEqual({ status: "EMAIL_VERIFICATION_INVALID_TOKEN_ERROR" });
    expect(stolen.res.headers.get("front-token")).toBeNull();
    expect(await (await status(eve.tokens)).json()).toEqual({ status: "OK", isVerified: false });
    const own = await postWithSession(t.url, "/user/email/verify", ada.tokens, verifyBody(req.json.token));
    expect(own.json).toEqual({ status: "OK" });
  });

  it("answers 401 without a session, for both endpoints, and keeps the token usable", async () => {
    const ada = await signUp(t.url, "ada-nosession@example.com", "cookie");
    const req = await postWithSession(t.url, "/user/email/verify/token", ada.tokens);
    const userId = jwtPayload(ada.tokens.access).sub;
    for (const [path, body] of [["/user/email/verify/token", undefined], ["/user/email/verify", verifyBody(req.json.token)]] as const) {
      const r = await postWithSession(t.url, path, undefined, body, { rid: "emailverification" });
      expect([path, r.res.status, r.json]).toEqual([path, 401, { message: "unauthorised" }]);
      expect(r.res.headers.get("front-token")).toBeNull(); // nothing to clear
    }
    expect(await countUserTokens(t.app.store.db, userId, "email_verification")).toBe(1);
    // A malformed access token is "try refresh token", as everywhere.
    const bad = await postWithSession(t.url, "/user/email/verify/token", { mode: "header", access: "ey.not.ajwt", refresh: "" });
    expect([bad.res.status, bad.json]).toEqual([401, { message: "try refresh token" }]);
    expect((await postWithSession(t.url, "/user/email/verify", ada.tokens, verifyBody(req.json.token))).json).toEqual({ status: "OK" });
  });

  it("refuses a token past its day (after refreshing the expired access token) and purges it", async () => {
    const bo = await signUp(t.url, "bo-expired@example.com", "header");
    const userId = jwtPayload(bo.tokens.access).sub;
    const req = await postWithSession(t.url, "/user/email/verify/token", bo.tokens);
    t.clock.advance(86_400_000);
    const stale = await postWithSession(t.url, "/user/email/verify", bo.tokens, verifyBody(req.json.token));
    expect([stale.res.status, stale.json]).toEqual([401, { message: "try refresh token" }]);
    expect(await countUserTokens(t.app.store.db, userId, "email_verification")).toBe(1); // not consumed by the 401
    const r = await refresh(t.url, bo.tokens);
    expect(r.status).toBe(200);
    const tokens = readTokens(r, "header", undefined, bo.tokens);
    const late = await postWithSession(t.url, "/user/email/verify", tokens, verifyBody(req.json.token));
    expect(late.json).toEqual({ status: "EMAIL_VERIFICATION_INVALID_TOKEN_ERROR" });
    expect(await countUserTokens(t.app.store.db, userId, "email_verification")).toBe(0);
    expect(await (await status(tokens)).json()).toEqual({ status: "OK", isVerified: false });
  });

  it("answers the exact 400s of PROTOCOL §7 and changes nothing", async () => {
    const cy = await signUp(t.url, "cy-400@example.com", "header");
    const req = await postWithSession(t.url, "/user/email/verify/token", cy.tokens);
    const cases: Array<[unknown, number, unknown]> = [
      [{ method: "token" }, 400, { message: "Please provide the email verification token" }],
      [verifyBody(null), 400, { message: "Please provide the email verification token" }],
      [verifyBody(42), 400, { message: "The email verification token must be a string" }],
      [verifyBody({ $gt: "" }), 400, { message: "The email verification token must be a string" }],
      [verifyBody([req.json.token]), 400, { message: "The email verification token must be a string" }],
      ["{not json", 400, { message: "API input error: Please make sure to pass a valid JSON input in the request body" }],
      ['{"__proto__":{"token":1}}', 400, undefined],
      [verifyBody(""), 200, { status: "EMAIL_VERIFICATION_INVALID_TOKEN_ERROR" }],
      [verifyBody("' OR 1=1--"), 200, { status: "EMAIL_VERIFICATION_INVALID_TOKEN_ERROR" }],
      [verifyBody("x".repeat(10_000)), 200, { status: "EMAIL_VERIFICATION_INVALID_TOKEN_ERROR" }],
      [{ token: "x".repeat(20_000) }, 413, undefined],
    ];
    for (const [body, code, expected] of cases) {
      const r = await postWithSession(t.url, "/user/email/verify", cy.tokens, body);
      expect([body, r.res.status]).toEqual([body, code]);
      if (expected) expect(r.json).toEqual(expected);
    }
    // Even without a session the shape is checked first (as the SuperTokens SDK does).
    const anon = await postWithSession(t.url, "/user/email/verify", undefined, { method: "token" });
    expect([anon.res.status, anon.json]).toEqual([400, { message: "Please provide the email verification token" }]);
    expect(await (await status(cy.tokens)).json()).toEqual({ status: "OK", isVerified: false });
    expect((await postWithSession(t.url, "/user/email/verify", cy.tokens, verifyBody(req.json.token))).json).toEqual({ status: "OK" });
  });

  it("refuses a revoked session with 401 unauthorised and clears its tokens", async () => {
    const di = await signUp(t.url, "di-revoked@example.com", "cookie");
    const req = await postWithSession(t.url, "/user/email/verify/token", di.tokens);
    const out = await postWithSession(t.url, "/signout", di.tokens);
    expect(out.json).toEqual({ status: "OK" });
    for (const [path, body] of [["/user/email/verify/token", undefined], ["/user/email/verify", verifyBody(req.json.token)]] as const) {
      const r = await postWithSession(t.url, path, di.tokens, body);
      expect([path, r.res.status, r.json]).toEqual([path, 401, { message: "unauthorised" }]);
      expect(r.res.headers.get("front-token")).toBe("remove");
      expect(setCookies(r.res).sAccessToken.raw).toContain("Expires=Thu, 01 Jan 1970 00:00:00 GMT");
    }
    expect(await countUserTokens(t.app.store.db, jwtPayload(di.tokens.access).sub, "email_verification")).toBe(1);
  });

  it("answers under the tenant prefix /auth/public too", async () => {
    const ed = await signUp(t.url, "ed-tenant@example.com", "header");
    const req = await postWithSession(t.url, "/public/user/email/verify/token", ed.tokens);
    expect(req.json.status).toBe("OK");
    expect((await postWithSession(t.url, "/public/user/email/verify", ed.tokens, verifyBody(req.json.token))).json).toEqual({ status: "OK" });
  });
});
