import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { eventually, startCli, waitForCaughtMail } from "../helpers/mail.js";
import { signInWithPassword, signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { countUserTokens } from "../../src/store/one-time-tokens.js";
import { listOutboxMessages } from "../../src/store/outbox.js";
import { lastCaughtMailId, listCaughtMail } from "../../src/store/caught-mail.js";
import { listEvents } from "../../src/store/events.js";
import { authHeaders, modeHeaders, refresh, signUp } from "../helpers/session-client.js";
import { hashToken } from "../../src/util/random.js";

const OLD = "old horse battery staple";
const NEW = "new horse battery staple";

async function post(t: TestApp, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}/auth${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", rid: "emailpassword", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  // Outside development mode a reset request's work runs after the answer (same time for every
  // address); wait for it, as a user waits for the mail, before looking at the database.
  await t.app.ctx.deferred.drain();
  let json: any;
  try { json = JSON.parse(text); } catch { json = text; }
  return { status: res.status, body: json, headers: res.headers };
}

const requestBody = (email: string) => ({ formFields: [{ id: "email", value: email }] });
const resetBody = (token: unknown, password: string) => ({ method: "token", formFields: [{ id: "password", value: password }], token });

async function addSession(t: TestApp, userId: string, handle: string) {
  const now = t.clock.now();
  await t.app.store.db.insertInto("sessions").values({ handle, user_id: userId, created_at: now, expires_at: now + 86_400_000, last_refreshed_at: null, revoked_at: null, revoke_reason: null }).execute();
}

describe.each(backends)("password reset over HTTP and SMTP ($name)", (backend) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ backend, config: { mailCatcher: true, mailCatcherPort: 0, mode: "production", smtpUrl: undefined }, start: false });
  });
  afterEach(async () => { await t.close(); });

  it("mails a token that tail-mail --wait prints, resets once, revokes sessions, and sends the 'password changed' mail", async () => {
    // Production mode still delivers to the catcher here (no relay configured; catcher on), and the
    // response must not carry the token.
    await t.app.start();
    const up = await signUpWithPassword(t.app.ctx, { email: "Ada@Example.com", password: OLD });
    if (up.status !== "OK") throw new Error("sign-up failed");
    await addSession(t, up.user.id, "s1");
    await addSession(t, up.user.id, "s2");

    const waiter = startCli(["tail-mail", "--wait", "--to", "ada@example.com", "--timeout", "20", "--database", t.config.database]);
    await waiter.stderrMatches(/waiting for new mail/);
    const r = await post(t, "/user/password/reset/token", requestBody("  ADA@example.com "));
    expect(r).toMatchObject({ status: 200, body: { status: "OK" } });
    expect(r.body).not.toHaveProperty("token");
    expect(r.headers.get("cache-control")).toBe("no-store");
    const tail = await waiter.done;
    expect(tail.code).toBe(0);
    const token = tail.stdout.trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    const mail = await waitForCaughtMail(t.app, "ada@example.com", { action: "reset-password" });
    expect(mail.link).toBe(`${t.config.websiteUrl}${t.config.websiteBasePath}/reset-password?token=${token}&tenantId=public`);
    expect(mail.expiresAt).toBe(new Date(t.clock.now() + 3_600_000).toISOString());
    // The "system event" names the link with the token redacted, plus a hash prefix to correlate.
    const [event] = await listEvents(t.app.store.db, { type: "password_reset.token_created" });
    expect(JSON.parse(event.data!)).toEqual({
      email: "ada@example.com",
      link: `${t.config.websiteUrl}${t.config.websiteBasePath}/reset-password?token=REDACTED&tenantId=public`,
      tokenHashPrefix: hashToken(token).slice(0, 12),
      expiresAt: t.clock.now() + 3_600_000,
      source: "api",
    });

    const before = await lastCaughtMailId(t.app.store.db);
    const ok = await post(t, "/user/password/reset", resetBody(token, NEW));
    expect(ok).toMatchObject({ status: 200, body: { status: "OK" } });
    expect((await signInWithPassword(t.app.ctx, { email: "ada@example.com", password: OLD })).status).toBe("WRONG_CREDENTIALS_ERROR");
    expect((await signInWithPassword(t.app.ctx, { email: "ada@example.com", password: NEW })).status).toBe("OK");
    const sessions = await t.app.store.db.selectFrom("sessions").select(["handle", "revoked_at", "revoke_reason"]).orderBy("handle").execute();
    expect(sessions.map((s) => [s.handle, s.revoked_at !== null, s.revoke_reason])).toEqual([["s1", true, "password_reset"], ["s2", true, "password_reset"]]);
    const again = await post(t, "/user/password/reset", resetBody(token, "third horse battery staple"));
    expect(again.body).toEqual({ status: "RESET_PASSWORD_INVALID_TOKEN_ERROR" });
    const changed = await waitForCaughtMail(t.app, "ada@example.com", { afterId: before });
    expect(changed.subject).toBe("Your password was changed");
    expect(changed.token).toBeNull();
    // Delivered mail keeps no token: the outbox bodies were scrubbed.
    await eventually(async () => (await listOutboxMessages(t.app.store.db)).every((row) => row.status === "sent"));
    const rows = await listOutboxMessages(t.app.store.db);
    expect(rows.map((row) => [row.kind, row.text_body, row.html_body, row.smtp_response?.slice(0, 3)]).sort()).toEqual([
      ["password_changed", null, null, "250"],
      ["password_reset", null, null, "250"],
    ]);
    // No event ever holds the token (tokens are stored only hashed).
    const events = await listEvents(t.app.store.db);
    expect(events.map((e) => e.type)).toContain("password_reset.completed");
    for (const e of events) expect(e.data ?? "").not.toContain(token);
    // The email was marked verified by the reset.
    expect((await signInWithPassword(t.app.ctx, { email: "ada@example.com", password: NEW }) as any).user.verified).toBe(true);
  });

  it("over HTTP with real sessions: after a reset the old refresh token is 401 and the old access token is refused", async () => {
    for (const mode of ["cookie", "header"] as const) {
      const email = `ev-${mode}@example.com`;
      const up = await signUp(t.url, email, mode);
      expect(up.json.status).toBe("OK");
      expect(up.tokens.refresh).not.toBe("");
      expect((await fetch(`${t.url}/auth/user/email/verify`, { headers: authHeaders(up.tokens) })).status).toBe(200);

      const r = await post(t, "/user/password/reset/token", requestBody(email));
      expect(r.body).toEqual({ status: "OK" }); // production mode: no token in the answer
      const [row] = await listOutboxMessages(t.app.store.db, { kind: "password_reset", to: email });
      const token = /token=([A-Za-z0-9_-]+)/.exec(row.text_body!)![1];
      expect((await post(t, "/user/password/reset", resetBody(token, NEW))).body).toEqual({ status: "OK" });

      const stale = await refresh(t.url, up.tokens);
      expect([stale.status, await stale.json()]).toEqual([401, { message: "unauthorised" }]);
      expect(stale.headers.get("front-token")).toBe("remove");
      // The access token has not expired yet, but the endpoint checks the session store: revoked.
      const status = await fetch(`${t.url}/auth/user/email/verify`, { headers: authHeaders(up.tokens) });
      expect([status.status, await status.json()]).toEqual([401, { message: "unauthorised" }]);
      expect(status.headers.get("front-token")).toBe("remove");
      const verify = await fetch(`${t.url}/auth/user/email/verify/token`, { method: "POST", headers: authHeaders(up.tokens) });
      expect(verify.status).toBe(401);

      // The new password signs in over HTTP; the old one does not.
      const old = await post(t, "/signin", { formFields: [{ id: "email", value: email }, { id: "password", value: "correct horse battery staple" }] });
      expect(old.body).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
      const fresh = await post(t, "/signin", { formFields: [{ id: "email", value: email }, { id: "password", value: NEW }] }, modeHeaders(mode));
      expect(fresh.body.status).toBe("OK");
      expect(fresh.body.user.loginMethods[0].verified).toBe(true); // the mail proved the address
    }
  });

  it("lets exactly one of 32 concurrent submissions of one token succeed", async () => {
    // 31 of the 32 are invalid: more than the default guessing budget (invalid-token-ip) allows one address.
    const dev = await createTestApp({ backend, config: { mode: "development", limitInvalidTokenIp: "100/1h" } });
    try {
      await signUpWithPassword(dev.app.ctx, { email: "bo@example.com", password: OLD });
      const r = await post(dev, "/user/password/reset/token", requestBody("bo@example.com"));
      expect(r.body.status).toBe("OK");
      const token = r.body.token as string; // development mode only
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const results = await Promise.all(Array.from({ length: 32 }, (_, i) => post(dev, "/user/password/reset", resetBody(token, `${NEW} ${i}`))));
      expect(results.every((x) => x.status === 200)).toBe(true);
      const oks = results.filter((x) => x.body.status === "OK");
      expect(oks).toHaveLength(1);
      expect(results.filter((x) => x.body.status === "RESET_PASSWORD_INVALID_TOKEN_ERROR")).toHaveLength(31);
      const winner = results.indexOf(oks[0]);
      expect((await signInWithPassword(dev.app.ctx, { email: "bo@example.com", password: `${NEW} ${winner}` })).status).toBe("OK");
      expect(await listOutboxMessages(dev.app.store.db, { kind: "password_changed" })).toHaveLength(1);
    } finally {
      await dev.close();
    }
  });

  it("answers an unknown address and a third-party-only account exactly like a real one, with no token", async () => {
    await t.app.start();
    const now = t.clock.now();
    await t.app.store.db.insertInto("users").values({ id: "tp-user", email: "tp@example.com", time_joined: now, updated_at: now }).execute();
    await t.app.store.db.insertInto("third_party_identities").values({ provider_id: "google", provider_user_id: "g-1", user_id: "tp-user", email: "tp@example.com", created_at: now, updated_at: now }).execute();
    const real = await signUpWithPassword(t.app.ctx, { email: "real@example.com", password: OLD });
    if (real.status !== "OK") throw new Error("sign-up failed");

    const answers = [];
    for (const email of ["real@example.com", "nobody@example.com", "tp@example.com"]) {
      const r = await post(t, "/user/password/reset/token", requestBody(email));
      answers.push({ status: r.status, body: r.body, type: r.headers.get("content-type"), cache: r.headers.get("cache-control") });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    const tokens = await t.app.store.db.selectFrom("one_time_tokens").select(["user_id", "purpose"]).execute();
    expect(tokens).toEqual([{ user_id: real.user.id, purpose: "password_reset" }]);
    const notice = await waitForCaughtMail(t.app, "tp@example.com");
    expect(notice.subject).toBe("How you sign in");
    expect(notice.token).toBeNull();
    const caught = await listCaughtMail(t.app.store.db, { to: "tp@example.com" });
    expect(caught[0].text_body).toContain("it signs in with Google");
    expect(await listCaughtMail(t.app.store.db, { to: "nobody@example.com" })).toEqual([]);
    expect(await listOutboxMessages(t.app.store.db, { to: "nobody@example.com" })).toEqual([]);
  });

  it("refuses hostile input with a 4xx and changes nothing", async () => {
    await t.app.start();
    const up = await signUpWithPassword(t.app.ctx, { email: "cy@example.com", password: OLD });
    if (up.status !== "OK") throw new Error("sign-up failed");
    const cases: Array<[string, unknown, number, unknown?]> = [
      ["/user/password/reset/token", "{not json", 400],
      ["/user/password/reset/token", "[]", 400],
      ["/user/password/reset/token", {}, 400, { message: "Missing input param: formFields" }],
      ["/user/password/reset/token", { formFields: "x" }, 400],
      ["/user/password/reset/token", { formFields: [{ id: "email", value: 5 }] }, 400, { message: "email value must be a string" }],
      ["/user/password/reset/token", { formFields: [{ id: "email", value: "a@b.c" }, { id: "password", value: "x" }] }, 400],
      ["/user/password/reset/token", '{"__proto__":{"x":1},"formFields":[]}', 400],
      ["/user/password/reset/token", requestBody("cy@example.com\r\nBcc: evil@example.com"), 200, { status: "FIELD_ERROR", formFields: [{ id: "email", error: "Email is invalid" }] }],
      ["/user/password/reset/token", requestBody("cy@example.com,evil@example.com"), 200, { status: "FIELD_ERROR", formFields: [{ id: "email", error: "Email is invalid" }] }],
      ["/user/password/reset/token", requestBody("\"Evil\" <cy@example.com>"), 200, { status: "FIELD_ERROR", formFields: [{ id: "email", error: "Email is invalid" }] }],
      ["/user/password/reset/token", requestBody(""), 200, { status: "FIELD_ERROR", formFields: [{ id: "email", error: "Field is not optional" }] }],
      ["/user/password/reset", resetBody(undefined, NEW), 400, { message: "Please provide the password reset token" }],
      ["/user/password/reset", resetBody(null, NEW), 400, { message: "Please provide the password reset token" }],
      ["/user/password/reset", resetBody({ $gt: "" }, NEW), 400, { message: "The password reset token must be a string" }],
      ["/user/password/reset", resetBody(["x"], NEW), 400, { message: "The password reset token must be a string" }],
      ["/user/password/reset", resetBody("' OR 1=1--", NEW), 200, { status: "RESET_PASSWORD_INVALID_TOKEN_ERROR" }],
      ["/user/password/reset", resetBody("x".repeat(10_000), NEW), 200, { status: "RESET_PASSWORD_INVALID_TOKEN_ERROR" }],
      ["/user/password/reset", resetBody("", NEW), 200, { status: "RESET_PASSWORD_INVALID_TOKEN_ERROR" }],
      ["/user/password/reset", resetBody("whatever", "short"), 200, { status: "FIELD_ERROR", formFields: [{ id: "password", error: "Password must be at least 8 characters long." }] }],
      ["/user/password/reset", { token: "x", formFields: [{ id: "password", value: 12345678 }] }, 400, { message: "password value must be a string" }],
      ["/user/password/reset", "x".repeat(20_000), 413],
    ];
    for (const [path, body, status, expected] of cases) {
      const r = await post(t, path, body);
      expect([path, body, r.status]).toEqual([path, body, status]);
      if (expected) expect(r.body).toEqual(expected);
    }
    const wrongType = await fetch(`${t.url}/auth/user/password/reset/token`, { method: "POST", headers: { "content-type": "text/plain" }, body: "email=cy@example.com" });
    expect(wrongType.status).toBe(415);
    expect(await countUserTokens(t.app.store.db, up.user.id)).toBe(0);
    expect(await listOutboxMessages(t.app.store.db)).toEqual([]);
    expect((await signInWithPassword(t.app.ctx, { email: "cy@example.com", password: OLD })).status).toBe("OK");
  });

  it("refuses a reset token past its hour and purges it; a new password outside policy keeps the token usable", async () => {
    const up = await signUpWithPassword(t.app.ctx, { email: "di@example.com", password: OLD });
    if (up.status !== "OK") throw new Error("sign-up failed");
    // Production mode: the response has no token, so read it from the queued mail.
    await post(t, "/user/password/reset/token", requestBody("di@example.com"));
    const [row] = await listOutboxMessages(t.app.store.db, { kind: "password_reset" });
    const token = /token=([A-Za-z0-9_-]+)/.exec(row.text_body!)![1];
    const weak = await post(t, "/user/password/reset", resetBody(token, "di@example.com"));
    expect(weak.body.status).toBe("FIELD_ERROR");
    expect(await countUserTokens(t.app.store.db, up.user.id, "password_reset")).toBe(1);
    t.clock.advance(3_600_000);
    const late = await post(t, "/user/password/reset", resetBody(token, NEW));
    expect(late.body).toEqual({ status: "RESET_PASSWORD_INVALID_TOKEN_ERROR" });
    expect(await countUserTokens(t.app.store.db, up.user.id, "password_reset")).toBe(0);
    expect((await signInWithPassword(t.app.ctx, { email: "di@example.com", password: OLD })).status).toBe("OK");
  });
});
