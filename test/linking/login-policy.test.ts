import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCode } from "../../src/methods/totp/secrets.js";
import { backends } from "../helpers/backends.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { CONFIDENTIAL, signInWithProvider, startOidcProvider, type TestIdp } from "../helpers/oidc-provider.js";
import { authHeaders, credentials, jwtPayload, modeHeaders, postJson, postWithSession, readTokens, refresh, signUp, type Tokens } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { admin, KEY } from "../http/admin/admin-client.js";

const EP_LINK_UNVERIFIED = "Cannot sign in / up due to security reasons. Please contact support. (ERR_CODE_013)";
const mfaRefused = { message: "invalid claim", claimValidationErrors: [{ id: "st-mfa", reason: { message: "Completed factors in the session does not satisfy the MFA requirements for auth" } }] };

/**
 * Issue "sign-in methods that compose safely", findings 1–4, as an attacker would try them: through
 * the real HTTP stack, a real OpenID provider and real SMTP into the catcher (production mode: links
 * come from the mail).
 */
describe.each(backends)("sign-in methods that compose safely ($name)", (backend) => {
  let idp: TestIdp;
  let t: TestApp;

  beforeAll(async () => {
    idp = await startOidcProvider();
    const providers = [{ thirdPartyId: "oidc", name: "Test OIDC", oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email"] }];
    t = await createTestApp({ backend, start: true, config: { mode: "production", mailCatcher: true, mailCatcherPort: 0, smtpUrl: undefined, providers, adminApiKey: KEY, secret: "a server secret that is long enough for tests 0123456789" } });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  const header = modeHeaders("header");
  const post = async (path: string, body: unknown) => {
    const res = await postJson(`${t.url}/auth${path}`, body, { rid: "emailpassword", ...header });
    const json = (await res.json()) as Record<string, any>;
    return { res, json, tokens: readTokens(res, "header", json) };
  };
  /** A Google-like sign-in; with `session`, asks to add it to that session's person. */
  const google = async (login: string, email: string, session?: Tokens) => {
    idp.accounts.set(login, { email, email_verified: true });
    const r = await signInWithProvider(t.url, "oidc", login, { ...header, ...(session ? authHeaders(session) : {}) }, session ? { shouldTryLinkingWithSessionUser: true } : {});
    await t.app.ctx.deferred.drain();
    return { ...r, tokens: r.res.status === 200 && r.json.status === "OK" ? readTokens(r.res, "header", r.json) : undefined };
  };
  const linkPassword = (session: Tokens, email: string) =>
    postWithSession(t.url, "/signup", session, { ...credentials(email), shouldTryLinkingWithSessionUser: true }, { rid: "emailpassword", ...header });
  const verifyByMail = async (tokens: Tokens, email: string) => {
    expect((await postWithSession(t.url, "/user/email/verify/token", tokens)).json).toEqual({ status: "OK" });
    const mail = await waitForCaughtMail(t.app, email, { action: "verify-email" });
    expect((await postWithSession(t.url, "/user/email/verify", tokens, { method: "token", token: mail.token })).json.status).toBe("OK");
  };
  const resetByMail = async (email: string, password: string) => {
    expect((await post("/user/password/reset/token", { formFields: [{ id: "email", value: email }] })).json).toEqual({ status: "OK" });
    const mail = await waitForCaughtMail(t.app, email, { action: "reset-password" });
    return post("/user/password/reset", { method: "token", token: mail.token, formFields: [{ id: "password", value: password }] });
  };
  const members = async (personId: string) =>
    (await t.app.store.db.selectFrom("users").select("id").where((eb) => eb.or([eb("id", "=", personId), eb("primary_user_id", "=", personId)])).execute()).map((r) => r.id).sort();
  /** A verified password account with a verified TOTP device: the secret and a session that completed both factors. */
  const twoFactorPerson = async (email: string) => {
    const up = await signUp(t.url, email, "header");
    await verifyByMail(up.tokens, email);
    const dev = await postWithSession(t.url, "/totp/device", up.tokens, {});
    const v = await postWithSession(t.url, "/totp/device/verify", up.tokens, { deviceName: dev.json.deviceName, totp: generateCode(dev.json.secret, t.clock.now()) });
    expect(v.json.status).toBe("OK");
    return { id: idOf(up.json) as string, secret: dev.json.secret as string, tokens: v.tokens! };
  };
  /** The text body of a caught mail. */
  const bodyOf = async (id: number) => (await t.app.store.db.selectFrom("caught_mail").select("text_body").where("id", "=", id).executeTakeFirstOrThrow()).text_body ?? "";
  const idOf = (json: Record<string, any>) => (json.user as { id: string }).id;
  const mfaOf = (tokens: Tokens) => jwtPayload(tokens.access)["st-mfa"] as { v: boolean };

  it("finding 1: a password-only session of a two-factor account cannot add a login (403 st-mfa); with both factors it can, and the owner is mailed", async () => {
    const ada = await twoFactorPerson("ada@example.com");
    t.clock.advance(31_000);
    const stolen = (await post("/signin", credentials("ada@example.com"))).tokens;
    expect(mfaOf(stolen).v).toBe(false);

    const planted = await google("mallory-google", "mallory@evil.example", stolen);
    expect(planted.res.status).toBe(403);
    expect(planted.json).toEqual(mfaRefused);
    expect(await members(ada.id)).toEqual([ada.id]);
    const pw = await linkPassword(stolen, "mallory@evil.example");
    expect(pw.res.status).toBe(403);

    // The owner, with both factors done, may add their own Google login; they are told.
    const done = await postWithSession(t.url, "/totp/verify", stolen, { totp: generateCode(ada.secret, t.clock.now()) });
    expect(done.json.status).toBe("OK");
    const own = await google("ada-google", "ada.g@example.com", done.tokens!);
    expect(own.json).toMatchObject({ status: "OK", user: { id: ada.id } });
    const notice = await waitForCaughtMail(t.app, "ada@example.com", { action: "login-added" });
    expect(notice.subject).toBe("A new way to sign in was added to your account");
    expect(await bodyOf(notice.id)).toContain("oidc sign-in (ada.g@example.com)");
  });

  it("finding 1: a session older than five minutes must sign in again (403 st-fresh-sign-in) before adding a login", async () => {
    const up = await google("ben-google", "ben@example.com");
    t.clock.advance(6 * 60_000);
    const late = await linkPassword(up.tokens!, "ben@example.com");
    expect(late.res.status).toBe(403);
    expect(late.json.claimValidationErrors).toEqual([{ id: "st-fresh-sign-in", reason: { message: "Sign in again to add a sign-in method to this account", maxAgeInSeconds: 300 } }]);
    const fresh = await google("ben-google", "ben@example.com");
    expect((await linkPassword(fresh.tokens!, "ben@example.com")).json).toMatchObject({ status: "OK", user: { id: idOf(up.json) } });
  });

  it("finding 3: a session of an account whose address no one proved cannot add a login (ERR_CODE_013)", async () => {
    const pre = await signUp(t.url, "cleo@example.com", "header");
    const planted = await linkPassword(pre.tokens, "cleo@example.com");
    expect(planted.json.status).toBe("FIELD_ERROR"); // the same address: taken, not linked
    const google2 = await google("mallory-cleo", "mallory.cleo@evil.example", pre.tokens);
    expect(google2.json).toEqual({ status: "SIGN_IN_UP_NOT_ALLOWED", reason: expect.stringContaining("ERR_CODE_") });
    expect(await members(idOf(pre.json))).toEqual([idOf(pre.json)]);
    const other = await linkPassword(pre.tokens, "cleo.other@example.com");
    expect(other.json).toEqual({ status: "SIGN_UP_NOT_ALLOWED", reason: EP_LINK_UNVERIFIED });
  });

  it("finding 3: a reset of a pre-registered account leaves only the owner's login and sessions, and mails what remains", async () => {
    // An account prepared before this release (or by an operator's mistake): the intruder signed up
    // with the owner's address and has their own Google login in it.
    const pre = await signUp(t.url, "dora@example.com", "header");
    const intruder = await google("mallory-dora", "mallory.dora@evil.example");
    expect((await admin(t, "POST", `/users/${idOf(pre.json)}/links`, { userId: intruder.json.user.id })).status).toBe(200);
    expect(await members(idOf(pre.json))).toHaveLength(2);

    expect((await resetByMail("dora@example.com", "the owner's new password")).json.status).toBe("OK");
    expect(await members(idOf(pre.json))).toEqual([idOf(pre.json)]);
    expect((await refresh(t.url, pre.tokens)).status).toBe(401);
    expect((await refresh(t.url, intruder.tokens!)).status).toBe(401);
    const again = await google("mallory-dora", "mallory.dora@evil.example");
    expect(again.json.user.id).not.toBe(idOf(pre.json));
    const mail = await waitForCaughtMail(t.app, "dora@example.com", { action: "account-secured" });
    expect(await bodyOf(mail.id)).toContain("a password (dora@example.com)");
  });

  it("finding 2: a two-factor person joined with a one-factor person still needs the factor, on every login, and keeps roles and metadata", async () => {
    const eve = await twoFactorPerson("eve@example.com");
    await t.app.store.db.insertInto("user_metadata").values({ user_id: eve.id, data: JSON.stringify({ plan: "pro" }), updated_at: 0 }).execute();
    t.clock.advance(1000);
    const older = await google("eve-google", "eve.g@example.com");
    // The operator joins the newer two-factor person into the older one-factor person.
    const linked = await admin(t, "POST", `/users/${older.json.user.id}/links`, { userId: eve.id });
    expect(linked.status).toBe(200);
    t.clock.advance(31_000);
    for (const tokens of [(await post("/signin", credentials("eve@example.com"))).tokens, (await google("eve-google", "eve.g@example.com")).tokens!]) {
      expect(jwtPayload(tokens.access).sub).toBe(older.json.user.id);
      expect(mfaOf(tokens).v).toBe(false);
    }
    const signedIn = (await post("/signin", credentials("eve@example.com"))).tokens;
    const done = await postWithSession(t.url, "/totp/verify", signedIn, { totp: generateCode(eve.secret, t.clock.now() + 30_000) });
    expect(done.json.status).toBe("OK");
    expect(mfaOf(done.tokens!).v).toBe(true);
    const meta = await admin(t, "GET", `/users/${older.json.user.id}/metadata`);
    expect(meta.body).toMatchObject({ metadata: { plan: "pro" } });
  });

  it("the account page lists my login methods and removes one with my password, never the last", async () => {
    const up = await signUp(t.url, "hana@example.com", "header");
    await verifyByMail(up.tokens, "hana@example.com");
    const g = await google("hana-google", "hana@example.com");
    const list = await fetch(`${t.url}/auth/account/logins`, { headers: authHeaders(up.tokens) });
    const logins = ((await list.json()) as { logins: Array<Record<string, unknown>> }).logins;
    expect(logins.map((l) => [l.method, l.email, l.provider, l.passkeys, l.current, l.primary])).toEqual([
      ["emailpassword", "hana@example.com", null, null, true, true], ["thirdparty", "hana@example.com", "oidc", null, false, false],
    ]);
    const google2 = logins[1].recipeUserId as string;
    const wrong = await postWithSession(t.url, "/account/logins/remove", up.tokens, { recipeUserId: google2, password: "not my password" });
    expect(wrong.json).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
    expect(await members(idOf(up.json))).toHaveLength(2);
    const removed = await postWithSession(t.url, "/account/logins/remove", up.tokens, { recipeUserId: google2, password: credentials("x").formFields[1].value });
    expect(removed.json).toMatchObject({ status: "OK", logins: [{ method: "emailpassword" }] });
    expect((await refresh(t.url, g.tokens!)).status).toBe(401);
    const last = await postWithSession(t.url, "/account/logins/remove", up.tokens, { recipeUserId: idOf(up.json), password: credentials("x").formFields[1].value });
    expect(last.json).toEqual({ status: "LAST_LOGIN_METHOD" });
  });

  it("finding 4: a password reset ends the sessions of every login of the person, not only the password's", async () => {
    const up = await signUp(t.url, "finn@example.com", "header");
    await verifyByMail(up.tokens, "finn@example.com");
    const g = await google("finn-google", "finn@example.com");
    expect(g.json.user.id).toBe(idOf(up.json));
    expect((await resetByMail("finn@example.com", "another good password")).json.status).toBe("OK");
    expect((await refresh(t.url, g.tokens!)).status).toBe(401);
    expect((await refresh(t.url, up.tokens)).status).toBe(401);
  });

  it("finding 4: an operator's password change ends the sessions of every login of the person", async () => {
    const up = await signUp(t.url, "gus@example.com", "header");
    await verifyByMail(up.tokens, "gus@example.com");
    const g = await google("gus-google", "gus@example.com");
    const set = await admin(t, "PUT", `/users/${idOf(up.json)}/password`, { password: "an operator's choice 1" });
    expect(set.status).toBe(200);
    expect((await refresh(t.url, g.tokens!)).status).toBe(401);
  });
});
