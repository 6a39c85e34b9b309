import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { authHeaders, signUp, type Tokens } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/**
 * Finding 9 of the sign-in hardening: an email change mails a confirmation link to an address the
 * requester names. Without the per-address mail budgets anyone with an account could flood any
 * mailbox from the account page. Now it counts like a verification mail: 1 a minute, 5 an hour.
 */
const PASSWORD = "correct horse battery staple";

describe.each(backends)("email-change confirmations count against the per-address mail budgets ($name)", (backend) => {
  let t: TestApp;
  let tokens: Tokens;
  beforeEach(async () => {
    // Per-IP budgets out of the way: the per-address ones are under test.
    t = await createTestApp({ backend, config: { limitMailIp: "1000/1h", limitSigninIp: "1000/15m" } });
    tokens = (await signUp(t.url, "mallory@example.com", "header")).tokens;
  });
  afterEach(async () => { await t.close(); });

  const changeTo = async (email: string) => {
    const res = await fetch(`${t.url}/auth/account/email`, { method: "POST", headers: { ...authHeaders(tokens), "content-type": "application/json" }, body: JSON.stringify({ email, password: PASSWORD }) });
    return { status: res.status, body: await res.json() };
  };
  const mailsTo = async (email: string) => (await t.app.store.db.selectFrom("mail_outbox").select("id").where("to_address", "=", email).execute()).length;

  it("one a minute and five an hour to the same address; the sixth is 429 and sends nothing", async () => {
    expect(await changeTo("victim@example.com")).toEqual({ status: 200, body: { status: "OK" } });
    expect((await changeTo("victim@example.com")).status).toBe(429);
    expect(await mailsTo("victim@example.com")).toBe(1);
    for (let i = 2; i <= 5; i++) {
      t.clock.advance(61_000);
      expect((await changeTo("Victim@Example.com")).body).toEqual({ status: "OK" });
    }
    t.clock.advance(61_000);
    expect((await changeTo("victim@example.com")).status).toBe(429);
    expect(await mailsTo("victim@example.com")).toBe(5);
    // Another address has its own budget.
    expect((await changeTo("someone-else@example.com")).body).toEqual({ status: "OK" });
  });

  it("shares the budget with verification mails to that address: the hourly cap is one cap", async () => {
    for (let i = 0; i < 5; i++) {
      expect((await changeTo("shared@example.com")).status).toBe(200);
      t.clock.advance(61_000);
    }
    const other = (await signUp(t.url, "shared@example.com", "header")).tokens;
    const verify = await fetch(`${t.url}/auth/user/email/verify/token`, { method: "POST", headers: authHeaders(other) });
    expect(verify.status).toBe(429);
  });
});
