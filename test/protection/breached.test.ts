import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { backends } from "../helpers/backends.js";
import { call, emailOnly, signin } from "../helpers/limits.js";
import { jwtPayload } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { admin, KEY } from "../http/admin/admin-client.js";
import { startRangeStandIn } from "./range-stand-in.js";

const BREACHED = "this passphrase was in a breach";
const PADDED = "this passphrase is only padding";
const CLEAN = "correct horse battery staple";
const LISTED = "password123"; // in the shipped list (zxcvbn-ts's common passwords)
const MESSAGE = "This password has appeared in a data breach, so it is not safe to use. Please choose another one.";
const refusedField = { status: "FIELD_ERROR", formFields: [{ id: "password", error: MESSAGE }] };
const sha1 = (p: string) => createHash("sha1").update(p).digest("hex").toUpperCase();

describe.each(backends)("breached passwords (--breached-passwords online) on $name", (backend) => {
  let range: Awaited<ReturnType<typeof startRangeStandIn>>;
  let t: TestApp;
  beforeAll(async () => {
    range = await startRangeStandIn([BREACHED], [PADDED]);
    t = await createTestApp({ backend, config: { breachedPasswords: "online", breachedPasswordsUrl: range.url, breachedPasswordsTimeoutMs: 300, adminApiKey: KEY, breachedPasswordsAtSignIn: true } });
  });
  afterAll(async () => { await t.close(); await range.close(); });

  it("refuses a sign-up with a password the range API lists, sending only 5 hex characters and asking for padding", async () => {
    range.requests.length = 0;
    expect((await call(t, "/signup", signin("ada@example.com", BREACHED))).body).toEqual(refusedField);
    expect(range.requests).toEqual([{ path: `/range/${sha1(BREACHED).slice(0, 5)}`, padding: "true" }]);
    expect(await t.app.store.db.selectFrom("users").select("id").where("email", "=", "ada@example.com").executeTakeFirst()).toBeUndefined();
  });

  it("accepts a password that only pads the answer (count 0), and a clean one; a prefix is asked once while cached", async () => {
    expect((await call(t, "/signup", signin("pad@example.com", PADDED))).body.status).toBe("OK");
    range.requests.length = 0;
    expect((await call(t, "/signup", signin("ada@example.com", CLEAN))).body.status).toBe("OK");
    expect((await call(t, "/signup", signin("ada2@example.com", CLEAN))).body.status).toBe("OK");
    expect(range.requests.length).toBe(1);
  });

  it("refuses a breached or listed password on every path that sets one: reset, the account page, the admin API", async () => {
    const ada = (await t.app.store.db.selectFrom("users").select("id").where("email", "=", "ada@example.com").executeTakeFirstOrThrow()).id;
    const token = (await call(t, "/user/password/reset/token", emailOnly("ada@example.com"))).body.token as string;
    for (const pw of [BREACHED, LISTED]) {
      expect((await call(t, "/user/password/reset", { method: "token", token, formFields: [{ id: "password", value: pw }] })).body).toEqual(refusedField);
      expect((await admin(t, "PUT", `/users/${ada}/password`, { password: pw })).body).toEqual(expect.objectContaining({ formFields: refusedField.formFields }));
    }
    const access = (await signInHeader(t, "ada@example.com", CLEAN)).access;
    const change = await call(t, "/account/password", { currentPassword: CLEAN, newPassword: BREACHED }, { authorization: `Bearer ${access}` });
    expect(change.body).toEqual({ status: "FIELD_ERROR", formFields: [{ id: "newPassword", error: MESSAGE }] });
    // Nothing changed: the old password still signs in, and the reset link still works.
    expect((await call(t, "/signin", signin("ada@example.com", CLEAN))).body.status).toBe("OK");
    expect((await call(t, "/user/password/reset", { method: "token", token, formFields: [{ id: "password", value: "a fresh unbreached passphrase" }] })).body).toEqual({ status: "OK" });
  });

  it("at sign-in (--breached-passwords-at-sign-in): signs in with the claim pwd_breached, until the password changes", async () => {
    // A password set before the check could see it (kept from an old system): it still signs in, marked.
    const r = await signUpWithPassword(t.app.ctx, { email: "old@example.com", password: BREACHED, movedIn: { top: new Map() } });
    expect(r.status).toBe("OK");
    const first = await signInHeader(t, "old@example.com", BREACHED);
    expect([first.status, first.claims.pwd_breached]).toEqual(["OK", true]);
    const change = await call(t, "/account/password", { currentPassword: BREACHED, newPassword: "a brand new unbreached phrase" }, { authorization: `Bearer ${first.access}` });
    expect(change.body.status).toBe("OK");
    const refreshed = await fetch(`${t.url}/auth/session/refresh`, { method: "POST", headers: { authorization: `Bearer ${first.refresh}`, "st-auth-mode": "header" } });
    expect(refreshed.status).toBe(200);
    expect(jwtPayload(refreshed.headers.get("st-access-token")!).pwd_breached).toBeUndefined();
    const again = await signInHeader(t, "old@example.com", "a brand new unbreached phrase");
    expect([again.status, again.claims.pwd_breached]).toEqual(["OK", undefined]);
  });
});

describe.each(backends)("breached passwords when the range API cannot answer, on $name", (backend) => {
  it("decides with the shipped list: the sign-up goes on, a listed password is refused; a hanging API waits only the timeout", async () => {
    const range = await startRangeStandIn([BREACHED]);
    const t = await createTestApp({ backend, config: { breachedPasswords: "online", breachedPasswordsUrl: "http://127.0.0.1:9/range/", breachedPasswordsTimeoutMs: 300 } });
    const hanging = await createTestApp({ backend, config: { breachedPasswords: "online", breachedPasswordsUrl: range.url, breachedPasswordsTimeoutMs: 300 } });
    try {
      expect((await call(t, "/signup", signin("down@example.com", BREACHED))).body.status).toBe("OK");
      expect((await call(t, "/signup", signin("listed@example.com", LISTED))).body).toEqual(refusedField);
      range.hang = true;
      expect((await call(hanging, "/signup", signin("slow@example.com", BREACHED))).body.status).toBe("OK");
      expect(range.requests.length).toBe(1);
      // Within the next half minute nobody waits on it again: no second request.
      expect((await call(hanging, "/signup", signin("slow2@example.com", BREACHED))).body.status).toBe("OK");
      expect(range.requests.length).toBe(1);
    } finally {
      await t.close();
      await hanging.close();
      await range.close();
    }
  });

  it("--breached-passwords offline asks nobody and refuses the shipped list", async () => {
    const range = await startRangeStandIn([BREACHED]);
    const t = await createTestApp({ backend, config: { breachedPasswords: "offline", breachedPasswordsUrl: range.url } });
    try {
      expect((await call(t, "/signup", signin("listed@example.com", "PassWord123"))).body).toEqual(refusedField);
      expect((await call(t, "/signup", signin("off@example.com", BREACHED))).body.status).toBe("OK");
      expect(range.requests).toEqual([]);
    } finally {
      await t.close();
      await range.close();
    }
  });
});

/** Signs in in header mode: the outcome, the tokens and the access token's claims. */
async function signInHeader(t: TestApp, email: string, password: string) {
  const res = await fetch(`${t.url}/auth/signin`, { method: "POST", headers: { "content-type": "application/json", "st-auth-mode": "header" }, body: JSON.stringify(signin(email, password)) });
  const body = (await res.json()) as { status: string };
  const access = res.headers.get("st-access-token") ?? "";
  return { status: body.status, access, refresh: res.headers.get("st-refresh-token") ?? "", claims: access ? jwtPayload(access) : {} };
}
