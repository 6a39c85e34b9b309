import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { authHeaders, credentials, postJson, signUp, type Tokens } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/**
 * Finding 6 of the sign-in hardening: with a stolen session, the account page's current-password
 * checks (password change, email change, deletion) must not be an unlimited password oracle. They
 * share the per-address budget of POST /signin: 5 wrong answers free, then a growing wait.
 */
const PASSWORD = "correct horse battery staple";
const LIMITED = { message: "Too many requests. Please try again later." };

describe.each(backends)("current-password checks on the account page have a per-address budget ($name)", (backend) => {
  let t: TestApp;
  let tokens: Tokens;
  beforeEach(async () => {
    t = await createTestApp({ backend, config: { limitSigninIp: "1000/15m" } });
    tokens = (await signUp(t.url, "ada@example.com", "header")).tokens;
  });
  afterEach(async () => { await t.close(); });

  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${t.url}/auth${path}`, { method: "POST", headers: { ...authHeaders(tokens), "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json(), retryAfter: res.headers.get("retry-after") };
  };

  it("five wrong current passwords, then the address waits: even the right one is refused, here, at deletion and at /signin", async () => {
    for (let i = 0; i < 3; i++) expect((await post("/account/password", { currentPassword: `guess ${i}`, newPassword: "a brand new passphrase" })).body).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
    expect((await post("/account/email", { email: "new@example.com", password: "guess 3" })).body).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
    expect((await post("/account/delete", { password: "guess 4" })).body).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
    const locked = await post("/account/password", { currentPassword: PASSWORD, newPassword: "a brand new passphrase" });
    expect(locked).toEqual({ status: 429, body: LIMITED, retryAfter: "1" });
    expect((await post("/account/delete", { password: PASSWORD })).status).toBe(429);
    expect((await postJson(`${t.url}/auth/signin`, credentials("ada@example.com"))).status).toBe(429);
    // Nothing changed: the old password still signs in once the wait is over, and the account is there.
    t.clock.advance(1000);
    expect(await (await postJson(`${t.url}/auth/signin`, credentials("ada@example.com"))).json()).toMatchObject({ status: "OK" });
  });

  it("a right current password forgets the failures", async () => {
    for (let i = 0; i < 4; i++) expect((await post("/account/delete", { password: `guess ${i}` })).body).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
    expect((await post("/account/password", { currentPassword: PASSWORD, newPassword: "a brand new passphrase" })).body).toMatchObject({ status: "OK" });
    for (let i = 0; i < 4; i++) expect((await post("/account/email", { email: "new@example.com", password: `guess ${i}` })).body).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
  });
});
