import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { verifyUserEmail } from "../../src/core/users.js";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { admin, KEY } from "../http/admin/admin-client.js";
import { lastMailId, pwPost, readSignInMail, startFlow } from "../helpers/passwordless.js";
import { decodeFrontToken, jwtPayload } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const NOT_ALLOWED_SIGN_UP = "Cannot sign in / up due to security reasons. Please try a different login method or contact support. (ERR_CODE_002)";

/**
 * The passwordless recipe's wire contract (recipes notes §2) through the real HTTP stack and real
 * SMTP into the catcher: every status of create, resend and consume, single use under concurrency,
 * the per-device attempt limit, expiry, and account linking with a password user.
 */
describe.each(backends)("passwordless sign-in ($name)", (backend) => {
  let t: TestApp;
  let n = 0;
  const fresh = () => `pw${++n}-${backend.name}@example.com`;

  beforeAll(async () => {
    t = await createTestApp({ backend, start: true, config: { mode: "production", mailCatcher: true, mailCatcherPort: 0, smtpUrl: undefined, limitMailIp: "1000/1h", limitTokenIp: "1000/15m" } });
  });
  afterAll(async () => { await t?.close(); });

  const consume = (body: Record<string, unknown>) => pwPost(t, "/signinup/code/consume", body);

  it("is listed in loginmethods with both first factors", async () => {
    const res = await fetch(`${t.url}/auth/loginmethods`);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.passwordless).toEqual({ enabled: true });
    expect(body.firstFactors).toEqual(expect.arrayContaining(["emailpassword", "otp-email", "link-email"]));
  });

  it("answers malformed create requests with 400 and a bad address with GENERAL_ERROR", async () => {
    expect(await pwPost(t, "/signinup/code", {})).toMatchObject({ status: 400, json: { message: "Please provide exactly one of email or phoneNumber" } });
    expect(await pwPost(t, "/signinup/code", { email: "a@example.com", phoneNumber: "+4917612345678" })).toMatchObject({ status: 400, json: { message: "Please provide exactly one of email or phoneNumber" } });
    expect(await pwPost(t, "/signinup/code", { phoneNumber: "+4917612345678" })).toMatchObject({ status: 400, json: { message: 'Please provide an email since you have set the contactMethod to "EMAIL"' } });
    expect(await pwPost(t, "/signinup/code", { email: 42 })).toMatchObject({ status: 400 });
    expect(await pwPost(t, "/signinup/code", { email: "not an address" })).toMatchObject({ status: 200, json: { status: "GENERAL_ERROR", message: "Email is invalid" } });
  });

  it("starts a flow in SuperTokens' formats and mails a code and a link, storing neither", async () => {
    const email = fresh();
    const f = await startFlow(t, `  ${email.toUpperCase()} `);
    expect(f.flowType).toBe("USER_INPUT_CODE_AND_MAGIC_LINK");
    expect(Buffer.from(f.deviceId, "base64")).toHaveLength(32);
    expect(f.preAuthSessionId).toBe(createHash("sha256").update(Buffer.from(f.deviceId, "base64")).digest("base64url"));
    expect(f.code).toMatch(/^\d{6}$/);
    const url = new URL(f.link);
    expect(`${url.origin}${url.pathname}`).toBe("http://localhost:3000/auth/verify");
    expect(url.searchParams.get("preAuthSessionId")).toBe(f.preAuthSessionId);
    expect(url.searchParams.get("tenantId")).toBe("public");
    expect(f.linkCode).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(f.mail.subject).toBe("Your sign-in code");
    const row = await t.app.store.db.selectFrom("caught_mail").selectAll().where("id", "=", f.id).executeTakeFirstOrThrow();
    expect(row.html_body).toContain(f.code);
    expect(row.html_body).toContain(f.linkCode);
    const dump = JSON.stringify([
      await t.app.store.db.selectFrom("passwordless_devices").selectAll().execute(),
      await t.app.store.db.selectFrom("passwordless_codes").selectAll().execute(),
    ]);
    expect(dump).not.toContain(f.deviceId);
    expect(dump).not.toContain(f.linkCode);
    expect(dump).not.toMatch(new RegExp(`"${f.code}"`));
    // The outbox keeps no secret once the relay took the mail.
    const outbox = () => t.app.store.db.selectFrom("mail_outbox").select(["status", "text_body", "html_body"]).where("to_address", "=", email).executeTakeFirstOrThrow();
    while ((await outbox()).status !== "sent") await new Promise((r) => setTimeout(r, 20));
    expect(JSON.stringify(await outbox())).not.toContain(f.linkCode);
  });

  it("signs a new address up with the typed code: verified, session with factor otp-email; the code and the link then die", async () => {
    const email = fresh();
    const f = await startFlow(t, email);
    const ok = await consume({ preAuthSessionId: f.preAuthSessionId, deviceId: f.deviceId, userInputCode: f.code, shouldTryLinkingWithSessionUser: false });
    expect(ok.json).toMatchObject({ status: "OK", createdNewRecipeUser: true, user: { email, emails: [email], loginMethods: [{ recipeId: "passwordless", email, verified: true }] } });
    const access = jwtPayload(ok.res.headers.get("st-access-token")!);
    expect(access.sub).toBe(ok.json.user.id);
    expect(decodeFrontToken(ok.res.headers.get("front-token")!).uid).toBe(ok.json.user.id);
    expect(await consume({ preAuthSessionId: f.preAuthSessionId, deviceId: f.deviceId, userInputCode: f.code })).toMatchObject({ status: 200, json: { status: "RESTART_FLOW_ERROR" } });
    expect((await consume({ preAuthSessionId: f.preAuthSessionId, linkCode: f.linkCode })).json).toEqual({ status: "RESTART_FLOW_ERROR" });
    const exists = await (await fetch(`${t.url}/auth/passwordless/email/exists?email=${encodeURIComponent(email)}`)).json();
    expect(exists).toEqual({ status: "OK", exists: true });
  });

  it("signs an existing user in with the link, and success retires every other flow of the address", async () => {
    const email = fresh();
    const first = await startFlow(t, email);
    const up = await consume({ preAuthSessionId: first.preAuthSessionId, linkCode: first.linkCode });
    expect(up.json).toMatchObject({ status: "OK", createdNewRecipeUser: true });
    const a = await startFlow(t, email);
    const b = await startFlow(t, email);
    const inAgain = await consume({ preAuthSessionId: b.preAuthSessionId, linkCode: b.linkCode });
    expect(inAgain.json).toMatchObject({ status: "OK", createdNewRecipeUser: false, user: { id: up.json.user.id } });
    expect((await consume({ preAuthSessionId: a.preAuthSessionId, deviceId: a.deviceId, userInputCode: a.code })).json).toEqual({ status: "RESTART_FLOW_ERROR" });
    expect((await consume({ preAuthSessionId: a.preAuthSessionId, linkCode: a.linkCode })).json).toEqual({ status: "RESTART_FLOW_ERROR" });
  });

  it("counts wrong codes per device; the 5th ends the flow, even for the right code after it", async () => {
    const f = await startFlow(t, fresh());
    const wrong = f.code === "000000" ? "000001" : "000000";
    for (let i = 1; i <= 4; i++) {
      expect((await consume({ preAuthSessionId: f.preAuthSessionId, deviceId: f.deviceId, userInputCode: wrong })).json)
        .toEqual({ status: "INCORRECT_USER_INPUT_CODE_ERROR", failedCodeInputAttemptCount: i, maximumCodeInputAttempts: 5 });
    }
    expect((await consume({ preAuthSessionId: f.preAuthSessionId, deviceId: f.deviceId, userInputCode: wrong })).json).toEqual({ status: "RESTART_FLOW_ERROR" });
    expect((await consume({ preAuthSessionId: f.preAuthSessionId, deviceId: f.deviceId, userInputCode: f.code })).json).toEqual({ status: "RESTART_FLOW_ERROR" });
    expect((await consume({ preAuthSessionId: f.preAuthSessionId, linkCode: f.linkCode })).json).toEqual({ status: "RESTART_FLOW_ERROR" });
    expect((await pwPost(t, "/signinup/code/resend", { preAuthSessionId: f.preAuthSessionId, deviceId: f.deviceId })).json).toEqual({ status: "RESTART_FLOW_ERROR" });
    expect(await t.app.store.db.selectFrom("passwordless_devices").selectAll().where("pre_auth_session_id", "=", f.preAuthSessionId).execute()).toEqual([]);
  });

  it("answers an expired code EXPIRED (counted as a failure) and an expired link RESTART_FLOW_ERROR; codes live 10 minutes by default", async () => {
    const f = await startFlow(t, fresh());
    // ASVS 6.5.5: a mailed code works for at most 10 minutes unless the operator says otherwise.
    t.clock.advance(10 * 60_000);
    expect((await consume({ preAuthSessionId: f.preAuthSessionId, deviceId: f.deviceId, userInputCode: f.code })).json)
      .toEqual({ status: "EXPIRED_USER_INPUT_CODE_ERROR", failedCodeInputAttemptCount: 1, maximumCodeInputAttempts: 5 });
    expect((await consume({ preAuthSessionId: f.preAuthSessionId, linkCode: f.linkCode })).json).toEqual({ status: "RESTART_FLOW_ERROR" });
  });

  it("resends a new code on the same device; the older one stays valid until used or expired", async () => {
    const email = fresh();
    const f = await startFlow(t, email);
    const resent = await pwPost(t, "/signinup/code/resend", { preAuthSessionId: f.preAuthSessionId, deviceId: f.deviceId, shouldTryLinkingWithSessionUser: false });
    expect(resent.json).toEqual({ status: "OK" });
    const second = await readSignInMail(t, email, f.id);
    expect(second.code).toMatch(/^\d{6}$/);
    expect(second.linkCode).not.toBe(f.linkCode);
    expect(new URL(second.link).searchParams.get("preAuthSessionId")).toBe(f.preAuthSessionId);
    expect((await consume({ preAuthSessionId: f.preAuthSessionId, deviceId: f.deviceId, userInputCode: f.code })).json).toMatchObject({ status: "OK" });
    expect((await consume({ preAuthSessionId: f.preAuthSessionId, linkCode: second.linkCode })).json).toEqual({ status: "RESTART_FLOW_ERROR" });
  });

  it("answers resend for an unknown or mismatched device RESTART_FLOW_ERROR and missing ids 400", async () => {
    const f = await startFlow(t, fresh());
    const other = Buffer.alloc(32, 7).toString("base64");
    expect((await pwPost(t, "/signinup/code/resend", { preAuthSessionId: f.preAuthSessionId, deviceId: other })).json).toEqual({ status: "RESTART_FLOW_ERROR" });
    const unknown = createHash("sha256").update(Buffer.from(other, "base64")).digest("base64url");
    expect((await pwPost(t, "/signinup/code/resend", { preAuthSessionId: unknown, deviceId: other })).json).toEqual({ status: "RESTART_FLOW_ERROR" });
    expect(await pwPost(t, "/signinup/code/resend", { deviceId: f.deviceId })).toMatchObject({ status: 400, json: { message: "Please provide preAuthSessionId" } });
    expect(await pwPost(t, "/signinup/code/resend", { preAuthSessionId: f.preAuthSessionId })).toMatchObject({ status: 400, json: { message: "Please provide a deviceId" } });
  });

  it("refuses malformed consume bodies with 400 and changes nothing", async () => {
    const f = await startFlow(t, fresh());
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ linkCode: f.linkCode }, "Please provide preAuthSessionId"],
      [{ preAuthSessionId: f.preAuthSessionId }, "Please provide one of (linkCode) or (deviceId+userInputCode) and not both"],
      [{ preAuthSessionId: f.preAuthSessionId, linkCode: f.linkCode, deviceId: f.deviceId, userInputCode: f.code }, "Please provide one of (linkCode) or (deviceId+userInputCode) and not both"],
      [{ preAuthSessionId: f.preAuthSessionId, deviceId: f.deviceId }, "Please provide both deviceId and userInputCode"],
      [{ preAuthSessionId: f.preAuthSessionId, deviceId: Buffer.alloc(32, 1).toString("base64"), userInputCode: f.code }, "preAuthSessionId and deviceId doesn't match"],
      [{ preAuthSessionId: f.preAuthSessionId, deviceId: f.deviceId, userInputCode: 123456 }, "userInputCode must be a string"],
    ];
    for (const [body, message] of cases) expect(await consume(body)).toMatchObject({ status: 400, json: { message } });
    expect((await consume({ preAuthSessionId: f.preAuthSessionId, deviceId: f.deviceId, userInputCode: f.code })).json).toMatchObject({ status: "OK" });
  });

  it("lets exactly one of 32 concurrent submissions of one code sign in", async () => {
    const f = await startFlow(t, fresh());
    const results = await Promise.all(Array.from({ length: 32 }, (_, i) =>
      consume(i % 2 ? { preAuthSessionId: f.preAuthSessionId, deviceId: f.deviceId, userInputCode: f.code } : { preAuthSessionId: f.preAuthSessionId, linkCode: f.linkCode })));
    const statuses = results.map((r) => r.json.status);
    expect(statuses.filter((s) => s === "OK")).toHaveLength(1);
    expect(statuses.filter((s) => s === "RESTART_FLOW_ERROR")).toHaveLength(31);
    expect(results.every((r) => r.status === 200)).toBe(true);
  });

  it("joins a password user who has the address verified, and refuses beside an unverified one (ERR_CODE_002), leaving the code usable", async () => {
    const email = fresh();
    const pw = await signUpWithPassword(t.app.ctx, { email, password: "correct horse battery staple" });
    if (pw.status !== "OK") throw new Error("sign-up failed");
    const refused = await startFlow(t, email);
    expect((await consume({ preAuthSessionId: refused.preAuthSessionId, linkCode: refused.linkCode })).json).toEqual({ status: "SIGN_IN_UP_NOT_ALLOWED", reason: NOT_ALLOWED_SIGN_UP });
    await verifyUserEmail(t.app.ctx, pw.recipeUserId);
    const ok = await consume({ preAuthSessionId: refused.preAuthSessionId, linkCode: refused.linkCode });
    expect(ok.json).toMatchObject({ status: "OK", createdNewRecipeUser: true, user: { id: pw.recipeUserId, isPrimaryUser: true } });
    expect(ok.json.user.loginMethods.map((m: any) => m.recipeId).sort()).toEqual(["emailpassword", "passwordless"]);
    const access = jwtPayload(ok.res.headers.get("st-access-token")!);
    expect(access.sub).toBe(pw.recipeUserId);
    expect(access.rsub).not.toBe(pw.recipeUserId);
  });

  it("purges expired codes and the devices left without one", async () => {
    const f = await startFlow(t, fresh());
    t.clock.advance(16 * 60_000);
    const { purgeDeadData } = await import("../../src/core/purge.js");
    const r = await purgeDeadData(t.app.ctx);
    expect(r.passwordlessCodes).toBeGreaterThanOrEqual(1);
    expect(await t.app.store.db.selectFrom("passwordless_codes").selectAll().where("pre_auth_session_id", "=", f.preAuthSessionId).execute()).toEqual([]);
    expect(await t.app.store.db.selectFrom("passwordless_devices").selectAll().where("pre_auth_session_id", "=", f.preAuthSessionId).execute()).toEqual([]);
  });

  it("tail-mail prints the code or the link of the newest sign-in mail", async () => {
    const email = fresh();
    const f = await startFlow(t, email);
    const args = ["tail-mail", "--wait", "--since", "1h", "--to", email, "--database", t.config.database];
    expect(await runCli([...args, "--print", "code"])).toMatchObject({ code: 0, stdout: `${f.code}\n` });
    expect(await runCli([...args, "--print", "link"])).toMatchObject({ code: 0, stdout: `${f.link}\n` });
    const human = await runCli(["tail-mail", "--to", email, "--database", t.config.database]);
    expect(human.stdout).toContain("sign-in code or link");
    expect(human.stdout).toContain(`code:\n${f.code}`);
  });

  it("answers email exists false for an address without a passwordless method, and 400 without one", async () => {
    expect(await (await fetch(`${t.url}/auth/passwordless/email/exists?email=nobody@example.com`)).json()).toEqual({ status: "OK", exists: false });
    expect((await fetch(`${t.url}/auth/passwordless/email/exists`)).status).toBe(400);
    expect(await lastMailId(t.app)).toBeGreaterThan(0);
  });
});

describe.each(backends)("passwordless budgets ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    // Production's budgets per address (mail-hourly 5/1h); a small per-IP budget to reach it quickly.
    t = await createTestApp({ backend, start: true, config: { mode: "production", mailCatcher: true, mailCatcherPort: 0, smtpUrl: undefined, limitMailIp: "14/1h" } });
  });
  afterAll(async () => { await t?.close(); });

  const shape = (r: Awaited<ReturnType<typeof pwPost>>) => ({ status: r.status, body: r.json, retryAfter: r.res.headers.get("retry-after") });

  it("caps code requests and resends per address, the same way whether the address has an account", async () => {
    const member = `member-${backend.name}@example.com`;
    const f = await startFlow(t, member);
    expect((await pwPost(t, "/signinup/code/consume", { preAuthSessionId: f.preAuthSessionId, linkCode: f.linkCode })).json.status).toBe("OK");
    const stranger = `stranger-${backend.name}@example.com`;
    for (let i = 0; i < 4; i++) expect((await pwPost(t, "/signinup/code", { email: member })).json.status).toBe("OK");
    const first = await pwPost(t, "/signinup/code", { email: stranger });
    for (let i = 0; i < 3; i++) {
      expect((await pwPost(t, "/signinup/code/resend", { preAuthSessionId: first.json.preAuthSessionId, deviceId: first.json.deviceId })).json.status).toBe("OK");
    }
    expect((await pwPost(t, "/signinup/code", { email: stranger })).json.status).toBe("OK");
    const a = await pwPost(t, "/signinup/code", { email: member });
    const b = await pwPost(t, "/signinup/code/resend", { preAuthSessionId: first.json.preAuthSessionId, deviceId: first.json.deviceId });
    expect(shape(a)).toEqual({ status: 429, body: { message: "Too many requests. Please try again later." }, retryAfter: expect.stringMatching(/^\d+$/) });
    expect(shape(b)).toEqual(shape(a));
  });

  it("caps code requests per client IP (mail-ip), across addresses", async () => {
    // 12 mail requests so far from this IP in the test above (1 + 4 + 1 + 3 + 1, and the 2 the address cap refused).
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await pwPost(t, "/signinup/code", { email: `ip${i}-${backend.name}@example.com` }));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 429]);
  });
});

describe.each(backends)("passwordless users made by admins ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend, start: true, config: { mode: "production", mailCatcher: true, mailCatcherPort: 0, smtpUrl: undefined, adminApiKey: KEY } });
  });
  afterAll(async () => { await t?.close(); });

  it("the admin API creates a user with only a passwordless login, who then signs in with a mailed code", async () => {
    const email = `admin-made-${backend.name}@example.com`;
    const made = await admin(t, "POST", "/users", { email, passwordless: true });
    expect(made).toMatchObject({ status: 201, body: { user: { email, loginMethods: [{ recipeId: "passwordless", verified: true }] } } });
    expect(await admin(t, "POST", "/users", { email, passwordless: true })).toMatchObject({ status: 409, body: { message: "a passwordless user with this address exists already" } });
    expect(await admin(t, "POST", "/users", { email, passwordless: true, password: "x" })).toMatchObject({ status: 400 });
    const f = await startFlow(t, email);
    const ok = await pwPost(t, "/signinup/code/consume", { preAuthSessionId: f.preAuthSessionId, deviceId: f.deviceId, userInputCode: f.code });
    expect(ok.json).toMatchObject({ status: "OK", createdNewRecipeUser: false, user: { id: made.body.user.id } });
  });

  it("create-user --passwordless makes one from the CLI, and users show lists the method", async () => {
    const email = `cli-made-${backend.name}@example.com`;
    const r = await runCli(["create-user", "--email", email, "--passwordless", "--json", "--database", t.config.database]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ email, loginMethods: [{ recipeId: "passwordless", verified: true }] });
    const shown = await runCli(["users", "show", email, "--database", t.config.database]);
    expect(shown.stdout).toMatch(new RegExp(`- passwordless  ${email.replace(/\./g, "\\.")}  verified  id `));
    expect((await runCli(["create-user", "--email", email, "--passwordless", "--database", t.config.database])).code).not.toBe(0);
  });
});

describe.each(backends)("passwordless in development: the inbox and the hosted pages ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend, start: true, config: { hostedPages: true, publicUrl: "http://127.0.0.1:9", websiteUrl: "http://localhost:3000", mailCatcher: true, mailCatcherPort: 0 } });
  });
  afterAll(async () => { await t?.close(); });

  it("the inbox shows the code and the link, valid, then used or expired", async () => {
    const list = async () => ((await (await fetch(`${t.url}/_dev/mail/messages?to=inbox-&action=passwordless`)).json()) as { messages: Array<{ id: number; to: string; code: string; link: string; tokenState: string }> }).messages;
    const used = await startFlow(t, "inbox-used@example.com");
    const left = await startFlow(t, "inbox-left@example.com");
    // Hosted pages on: the link goes to the hosted link page on the public URL.
    expect(used.link).toMatch(/^http:\/\/127\.0\.0\.1:9\/auth\/verify\?preAuthSessionId=/);
    expect((await list()).map((m) => [m.to, m.code, m.tokenState])).toEqual([["inbox-left@example.com", left.code, "valid"], ["inbox-used@example.com", used.code, "valid"]]);
    await pwPost(t, "/signinup/code/consume", { preAuthSessionId: used.preAuthSessionId, linkCode: used.linkCode });
    expect((await list()).map((m) => [m.to, m.tokenState])).toEqual([["inbox-left@example.com", "valid"], ["inbox-used@example.com", "used"]]);
    t.clock.advance(t.config.passwordlessCodeLifetimeMs + 1);
    expect((await list()).map((m) => [m.to, m.tokenState])[0]).toEqual(["inbox-left@example.com", "expired"]);
  });

  it("serves the hosted code and link pages, and the sign-in page has the passwordless button", async () => {
    for (const path of ["/auth/sign-in-code", "/auth/verify"]) {
      const res = await fetch(`${t.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/text\/html/);
    }
    expect(await (await fetch(`${t.url}/auth`)).text()).toContain('id="passwordless-start"');
  });
});
