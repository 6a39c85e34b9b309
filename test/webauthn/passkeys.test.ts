import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { markEmailVerified } from "../../src/store/users.js";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { SoftwareAuthenticator } from "../helpers/software-authenticator.js";
import { postWithSession, readTokens, type Tokens } from "../helpers/session-client.js";
import { listOutboxMessages } from "../../src/store/outbox.js";
import { listEvents } from "../../src/store/events.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { verifyUserEmail } from "../../src/core/users.js";

const ORIGIN = "http://localhost:3000";

async function call(t: TestApp, method: "GET" | "POST", path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}/auth${path}`, {
    method, headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), rid: "webauthn", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await t.app.ctx.deferred.drain();
  return { status: res.status, body: (await res.json()) as Record<string, any>, res };
}

/** Options, then a registration by `auth`, then /webauthn/signup: a passkey user signed in (header mode). */
async function signUp(t: TestApp, auth: SoftwareAuthenticator, email: string) {
  const options = await call(t, "POST", "/webauthn/options/register", { email });
  expect(options.body.status).toBe("OK");
  const credential = auth.register(options.body as never);
  const r = await call(t, "POST", "/webauthn/signup", { webauthnGeneratedOptionsId: options.body.webauthnGeneratedOptionsId, credential }, { "st-auth-mode": "header" });
  return { ...r, credential, tokens: readTokens(r.res, "header") as Tokens };
}

async function signIn(t: TestApp, auth: SoftwareAuthenticator, o: Parameters<SoftwareAuthenticator["authenticate"]>[1] = {}) {
  const options = await call(t, "POST", "/webauthn/options/signin", {});
  expect(options.body.status).toBe("OK");
  const credential = auth.authenticate(options.body as never, o);
  return call(t, "POST", "/webauthn/signin", { webauthnGeneratedOptionsId: options.body.webauthnGeneratedOptionsId, credential }, { "st-auth-mode": "header" });
}

const counts = async (t: TestApp) => ({
  users: (await t.app.store.db.selectFrom("users").selectAll().execute()).length,
  credentials: (await t.app.store.db.selectFrom("webauthn_credentials").selectAll().execute()).length,
});

describe.each(backends)("passkeys over HTTP ($name)", (backend) => {
  let t: TestApp;
  beforeEach(async () => { t = await createTestApp({ backend, config: { mode: "production", smtpUrl: undefined } }); });
  afterEach(async () => { await t.close(); });

  it("signs up with a passkey (ES256), unverified, and signs in with it; the counter moves forward", async () => {
    const auth = new SoftwareAuthenticator(ORIGIN);
    const up = await signUp(t, auth, "  Ada@Example.com ");
    expect(up.status).toBe(200);
    expect(up.body.status).toBe("OK");
    expect(up.res.headers.get("st-access-token")).toBeTruthy();
    expect(up.body.user).toMatchObject({ email: "ada@example.com", webauthn: { credentialIds: [up.credential.id] } });
    expect(up.body.user.loginMethods).toEqual([expect.objectContaining({ recipeId: "webauthn", email: "ada@example.com", verified: false, webauthn: { credentialIds: [up.credential.id] } })]);
    const exists = await call(t, "GET", "/webauthn/email/exists?email=ADA%40example.com");
    expect(exists.body).toEqual({ status: "OK", exists: true });
    // An address no one can hold (a NUL byte, which PostgreSQL refuses in text) is simply not there.
    const nul = await call(t, "GET", "/webauthn/email/exists?email=ada%00%40example.com");
    expect([nul.status, nul.body]).toEqual([200, { status: "OK", exists: false }]);

    const first = await signIn(t, auth);
    expect(first.body.status).toBe("OK");
    expect(first.body.user.id).toBe(up.body.user.id);
    expect(first.res.headers.get("st-access-token")).toBeTruthy();
    const row = await t.app.store.db.selectFrom("webauthn_credentials").selectAll().executeTakeFirstOrThrow();
    expect(Number(row.counter)).toBe(1);
    expect(await signIn(t, auth)).toMatchObject({ body: { status: "OK" } });
  });

  it("accepts EdDSA passkeys", async () => {
    const auth = new SoftwareAuthenticator(ORIGIN, "EdDSA");
    expect((await signUp(t, auth, "ed@example.com")).body.status).toBe("OK");
    expect((await signIn(t, auth)).body.status).toBe("OK");
  });

  it("refuses a registration made on another origin or for another RP ID, and creates nothing", async () => {
    for (const o of [{ origin: "http://evil.example" }, { rpId: "evil.example" }]) {
      const options = await call(t, "POST", "/webauthn/options/register", { email: "bob@example.com" });
      const credential = new SoftwareAuthenticator(ORIGIN).register(options.body as never, o);
      const r = await call(t, "POST", "/webauthn/signup", { webauthnGeneratedOptionsId: options.body.webauthnGeneratedOptionsId, credential });
      expect(r.body).toEqual({ status: "INVALID_CREDENTIALS_ERROR" });
      expect(r.res.headers.get("front-token")).toBeNull();
    }
    expect(await counts(t)).toEqual({ users: 0, credentials: 0 });
  });

  it("refuses a sign-in from another origin or for another RP ID", async () => {
    const auth = new SoftwareAuthenticator(ORIGIN);
    await signUp(t, auth, "carol@example.com");
    expect((await signIn(t, auth, { origin: "http://localhost:3001" })).body).toEqual({ status: "INVALID_CREDENTIALS_ERROR" });
    expect((await signIn(t, auth, { rpId: "example.com" })).body).toEqual({ status: "INVALID_CREDENTIALS_ERROR" });
    expect((await signIn(t, auth)).body.status).toBe("OK");
  });

  it("uses options once: a replayed sign-up or sign-in finds nothing", async () => {
    const auth = new SoftwareAuthenticator(ORIGIN);
    const options = await call(t, "POST", "/webauthn/options/register", { email: "dan@example.com" });
    const credential = auth.register(options.body as never);
    const body = { webauthnGeneratedOptionsId: options.body.webauthnGeneratedOptionsId, credential };
    expect((await call(t, "POST", "/webauthn/signup", body)).body.status).toBe("OK");
    expect((await call(t, "POST", "/webauthn/signup", body)).body).toEqual({ status: "OPTIONS_NOT_FOUND_ERROR" });

    const signInOptions = await call(t, "POST", "/webauthn/options/signin", {});
    const assertion = auth.authenticate(signInOptions.body as never);
    const again = { webauthnGeneratedOptionsId: signInOptions.body.webauthnGeneratedOptionsId, credential: assertion };
    expect((await call(t, "POST", "/webauthn/signin", again)).body.status).toBe("OK");
    expect((await call(t, "POST", "/webauthn/signin", again)).body).toEqual({ status: "INVALID_CREDENTIALS_ERROR" });
  });

  it("refuses expired options (60 s) and options of the other kind", async () => {
    const auth = new SoftwareAuthenticator(ORIGIN);
    const options = await call(t, "POST", "/webauthn/options/register", { email: "eve@example.com" });
    expect(Date.parse(options.body.expiresAt) - Date.parse(options.body.createdAt)).toBe(60_000);
    const credential = auth.register(options.body as never);
    t.clock.advance(60_001);
    expect((await call(t, "POST", "/webauthn/signup", { webauthnGeneratedOptionsId: options.body.webauthnGeneratedOptionsId, credential })).body).toEqual({ status: "INVALID_OPTIONS_ERROR" });
    const signInOptions = await call(t, "POST", "/webauthn/options/signin", {});
    expect((await call(t, "POST", "/webauthn/signup", { webauthnGeneratedOptionsId: signInOptions.body.webauthnGeneratedOptionsId, credential })).body).toEqual({ status: "INVALID_OPTIONS_ERROR" });
    expect(await counts(t)).toEqual({ users: 0, credentials: 0 });
  });

  it("refuses an unknown passkey and a signature counter that goes backwards", async () => {
    const stranger = new SoftwareAuthenticator(ORIGIN);
    stranger.register({ challenge: "x", rp: { id: "localhost" }, user: { id: "nobody" } });
    expect((await signIn(t, stranger)).body).toEqual({ status: "INVALID_CREDENTIALS_ERROR" });

    const auth = new SoftwareAuthenticator(ORIGIN);
    await signUp(t, auth, "fay@example.com");
    expect((await signIn(t, auth, { counter: 5 })).body.status).toBe("OK");
    expect((await signIn(t, auth, { counter: 3 })).body).toEqual({ status: "INVALID_CREDENTIALS_ERROR" });
    expect((await signIn(t, auth, { counter: 5 })).body).toEqual({ status: "INVALID_CREDENTIALS_ERROR" });
    expect((await signIn(t, auth, { counter: 6 })).body.status).toBe("OK");
  });

  it("answers EMAIL_ALREADY_EXISTS_ERROR for an address with a passkey login", async () => {
    await signUp(t, new SoftwareAuthenticator(ORIGIN), "gus@example.com");
    expect((await signUp(t, new SoftwareAuthenticator(ORIGIN), "gus@example.com")).body).toEqual({ status: "EMAIL_ALREADY_EXISTS_ERROR" });
    expect(await counts(t)).toEqual({ users: 1, credentials: 1 });
  });

  it("answers bad input with a 400 and changes nothing", async () => {
    const options = await call(t, "POST", "/webauthn/options/register", { email: "hal@example.com" });
    const id = options.body.webauthnGeneratedOptionsId;
    for (const body of [{}, { webauthnGeneratedOptionsId: id }, { webauthnGeneratedOptionsId: id, credential: "x" }, { webauthnGeneratedOptionsId: 5, credential: {} },
      { webauthnGeneratedOptionsId: id, credential: { id: "a", rawId: "a", type: "public-key", response: {} } }]) {
      const r = await call(t, "POST", "/webauthn/signup", body);
      expect(r.status).toBe(400);
      expect(r.body.message).toEqual(expect.any(String));
    }
    expect((await call(t, "POST", "/webauthn/options/register", { email: 5 })).status).toBe(400);
    expect((await call(t, "POST", "/webauthn/options/register", { email: "not-an-address" })).body).toEqual({ status: "INVALID_EMAIL_ERROR", err: "Email is invalid" });
    // Well-shaped garbage reaches the verifier and is refused there, not with a 500.
    const garbage = { id: "AAAA", rawId: "AAAA", type: "public-key", response: { clientDataJSON: "!!!", attestationObject: "%%%" } };
    expect((await call(t, "POST", "/webauthn/signup", { webauthnGeneratedOptionsId: id, credential: garbage })).body).toEqual({ status: "INVALID_CREDENTIALS_ERROR" });
    expect(await counts(t)).toEqual({ users: 0, credentials: 0 });
  });

  it("recovers a lost passkey by mail: one-time link valid 1 hour, a new passkey, the address verified", async () => {
    const lost = new SoftwareAuthenticator(ORIGIN);
    const up = await signUp(t, lost, "ida@example.com");
    expect((await call(t, "POST", "/user/webauthn/reset/token", { email: "IDA@example.com" })).body).toEqual({ status: "OK" });
    expect((await call(t, "POST", "/user/webauthn/reset/token", { email: "nobody@example.com" })).body).toEqual({ status: "OK" });
    const mails = await listOutboxMessages(t.app.store.db, { kind: "webauthn_recovery" });
    expect(mails.map((m) => m.to_address)).toEqual(["ida@example.com"]);
    expect(JSON.parse(mails[0].headers!)).toMatchObject({ "X-Authsvc-Action": "recover-passkey" });
    const link = new URL(/https?:\/\/\S+/.exec(mails[0].text_body!)![0]);
    expect(link.pathname).toBe("/auth/webauthn/recover");
    const token = link.searchParams.get("token")!;
    expect(mails[0].text_body).toContain("1 hour");

    const fresh = new SoftwareAuthenticator(ORIGIN);
    t.clock.advance(1000); // the new passkey sorts after the lost one
    const options = await call(t, "POST", "/webauthn/options/register", { recoverAccountToken: token });
    expect(options.body.status).toBe("OK");
    expect(options.body.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([up.credential.id]);
    const credential = fresh.register(options.body as never);
    const r = await call(t, "POST", "/user/webauthn/reset", { token, webauthnGeneratedOptionsId: options.body.webauthnGeneratedOptionsId, credential });
    expect(r.body).toMatchObject({ status: "OK", email: "ida@example.com", user: { id: up.body.user.id } });
    // The first proof of the address: the passkey registered before it (whoever's it was) is removed,
    // only the one the mail's recipient registered stays (docs/account-linking.md).
    expect(r.body.user.loginMethods[0]).toMatchObject({ verified: true, webauthn: { credentialIds: [credential.id] } });
    expect((await signIn(t, fresh)).body.status).toBe("OK");
    expect((await signIn(t, lost)).body.status).toBe("INVALID_CREDENTIALS_ERROR");
    expect((await listOutboxMessages(t.app.store.db, { kind: "account_secured" })).map((m) => m.to_address)).toEqual(["ida@example.com"]);
    // The event names the keys removed as passkeys (the webhook payload's field).
    expect((await listEvents(t.app.store.db, { type: "user.secured" })).map((e) => JSON.parse(e.data!))).toEqual([
      { source: "webauthn_recovery", removedLogins: [], removedPasskeys: [up.credential.id], revokedSessions: 0, endedWaysIn: { sessions: 0, "support-sessions": 0, "oauth-grants": 0 } },
    ]);

    // The link works once.
    const second = await call(t, "POST", "/webauthn/options/register", { recoverAccountToken: token });
    expect(second.body).toEqual({ status: "RECOVER_ACCOUNT_TOKEN_INVALID_ERROR" });
    expect((await call(t, "POST", "/user/webauthn/reset", { token, webauthnGeneratedOptionsId: "x", credential })).body).toEqual({ status: "OPTIONS_NOT_FOUND_ERROR" });
    expect((await listEvents(t.app.store.db, { type: "webauthn.account_recovered" })).length).toBe(1);
  });

  it("refuses a recovery link after its hour", async () => {
    await signUp(t, new SoftwareAuthenticator(ORIGIN), "jo@example.com");
    await call(t, "POST", "/user/webauthn/reset/token", { email: "jo@example.com" });
    const [mail] = await listOutboxMessages(t.app.store.db, { kind: "webauthn_recovery" });
    const token = new URL(/https?:\/\/\S+/.exec(mail.text_body!)![0]).searchParams.get("token")!;
    const options = await call(t, "POST", "/webauthn/options/register", { recoverAccountToken: token });
    expect(options.body.status).toBe("OK");
    t.clock.advance(3_600_001);
    expect((await call(t, "POST", "/webauthn/options/register", { recoverAccountToken: token })).body).toEqual({ status: "RECOVER_ACCOUNT_TOKEN_INVALID_ERROR" });
  });

  it("lists, adds and removes passkeys for the signed-in user, never the last way in", async () => {
    const phone = new SoftwareAuthenticator(ORIGIN);
    const up = await signUp(t, phone, "kim@example.com");
    const list = async () => (await fetch(`${t.url}/auth/webauthn/credential/list`, { headers: { authorization: `Bearer ${up.tokens.access}` } }).then((r) => r.json()) as { credentials: { webauthnCredentialId: string }[] }).credentials.map((c) => c.webauthnCredentialId);
    expect(await list()).toEqual([up.credential.id]);
    const last = await postWithSession(t.url, "/webauthn/credential/remove", up.tokens, { webauthnCredentialId: up.credential.id });
    expect(last.json).toEqual({ status: "GENERAL_ERROR", message: expect.stringContaining("last way to sign in") });
    expect(await list()).toEqual([up.credential.id]);

    // A passkey is a way in: only a person with a verified address may add one (docs/account-linking.md).
    const early = await call(t, "POST", "/webauthn/options/register", { email: "kim@example.com" });
    const refused = await postWithSession(t.url, "/webauthn/credential", up.tokens, { webauthnGeneratedOptionsId: early.body.webauthnGeneratedOptionsId, recipeUserId: up.body.user.id, credential: new SoftwareAuthenticator(ORIGIN).register(early.body as never) });
    expect(refused.json).toEqual({ status: "REGISTER_CREDENTIAL_NOT_ALLOWED", reason: "Verify the address of this account before adding a passkey." });
    await markEmailVerified(t.app.store.db, up.body.user.id, "kim@example.com", t.clock.now());

    const laptop = new SoftwareAuthenticator(ORIGIN);
    t.clock.advance(1000);
    const options = await call(t, "POST", "/webauthn/options/register", { email: "kim@example.com" });
    const credential = laptop.register(options.body as never);
    const add = await postWithSession(t.url, "/webauthn/credential", up.tokens, { webauthnGeneratedOptionsId: options.body.webauthnGeneratedOptionsId, recipeUserId: up.body.user.id, credential });
    expect(add.json).toEqual({ status: "OK" });
    expect(await list()).toEqual([up.credential.id, credential.id]);
    // The notice goes to the login's own address too (it had it before the new passkey) and names what was added.
    const notices = await listOutboxMessages(t.app.store.db, { kind: "login_added" });
    expect(notices.map((m) => m.to_address)).toEqual(["kim@example.com"]);
    expect(notices[0].text_body).toContain("was just added to the account kim@example.com: a passkey.\n");
    // The account API counts a passkey login's passkeys in its `passkeys` field.
    const mine = await fetch(`${t.url}/auth/account/logins`, { headers: { authorization: `Bearer ${up.tokens.access}` } }).then((r) => r.json()) as { logins: Record<string, unknown>[] };
    expect(mine.logins.map((l) => [l.method, l.provider, l.passkeys])).toEqual([["webauthn", null, 2]]);
    expect((await signIn(t, laptop)).body.status).toBe("OK");

    expect((await postWithSession(t.url, "/webauthn/credential/remove", up.tokens, { webauthnCredentialId: up.credential.id })).json).toEqual({ status: "OK" });
    expect(await list()).toEqual([credential.id]);
    expect((await signIn(t, phone)).body).toEqual({ status: "INVALID_CREDENTIALS_ERROR" });
    expect((await postWithSession(t.url, "/webauthn/credential/remove", up.tokens, { webauthnCredentialId: "unknown" })).json).toEqual({ status: "CREDENTIAL_NOT_FOUND_ERROR" });
    expect((await fetch(`${t.url}/auth/webauthn/credential/list`)).status).toBe(401);
  });

  it("does not add a passkey to someone else's login", async () => {
    const a = await signUp(t, new SoftwareAuthenticator(ORIGIN), "lee@example.com");
    const b = await signUp(t, new SoftwareAuthenticator(ORIGIN), "max@example.com");
    const options = await call(t, "POST", "/webauthn/options/register", { email: "max@example.com" });
    const credential = new SoftwareAuthenticator(ORIGIN).register(options.body as never);
    const r = await postWithSession(t.url, "/webauthn/credential", a.tokens, { webauthnGeneratedOptionsId: options.body.webauthnGeneratedOptionsId, recipeUserId: b.body.user.id, credential });
    expect(r.json.status).toBe("REGISTER_CREDENTIAL_NOT_ALLOWED");
    expect((await postWithSession(t.url, "/webauthn/credential/remove", a.tokens, { webauthnCredentialId: b.credential.id })).json).toEqual({ status: "CREDENTIAL_NOT_FOUND_ERROR" });
    expect(await counts(t)).toEqual({ users: 2, credentials: 2 });
  });

  it("a session older than 5 minutes (a copied cookie) cannot add a passkey: 403 st-fresh-sign-in, nothing added; a new sign-in can", async () => {
    const phone = new SoftwareAuthenticator(ORIGIN);
    const up = await signUp(t, phone, "joe@example.com");
    await markEmailVerified(t.app.store.db, up.body.user.id, "joe@example.com", t.clock.now());
    t.clock.advance(5 * 60_000 + 1000);
    const add = async (tokens: Tokens) => {
      const options = await call(t, "POST", "/webauthn/options/register", { email: "joe@example.com" });
      return postWithSession(t.url, "/webauthn/credential", tokens, { webauthnGeneratedOptionsId: options.body.webauthnGeneratedOptionsId, recipeUserId: up.body.user.id, credential: new SoftwareAuthenticator(ORIGIN).register(options.body as never) });
    };
    const stale = await add(up.tokens);
    expect(stale.res.status).toBe(403);
    expect(stale.json).toMatchObject({ message: "invalid claim", claimValidationErrors: [{ id: "st-fresh-sign-in", reason: { maxAgeInSeconds: 300 } }] });
    expect(await counts(t)).toEqual({ users: 1, credentials: 1 });
    const again = await signIn(t, phone);
    expect((await add(readTokens(again.res, "header") as Tokens)).json).toEqual({ status: "OK" });
    expect(await counts(t)).toEqual({ users: 1, credentials: 2 });
  });

  it("follows the account-linking rules: an unverified passkey sign-up beside someone else's address is refused; with a session it joins the signed-in user", async () => {
    const pw = await signUpWithPassword(t.app.ctx, { email: "ned@example.com", password: "correct horse battery staple" });
    if (pw.status !== "OK") throw new Error("sign-up failed");
    const refused = await signUp(t, new SoftwareAuthenticator(ORIGIN), "ned@example.com");
    expect(refused.body).toEqual({ status: "SIGN_UP_NOT_ALLOWED", reason: expect.stringContaining("(ERR_CODE_025)") });

    await verifyUserEmail(t.app.ctx, pw.recipeUserId);
    const signin = await fetch(`${t.url}/auth/signin`, { method: "POST", headers: { "content-type": "application/json", "st-auth-mode": "header" }, body: JSON.stringify({ formFields: [{ id: "email", value: "ned@example.com" }, { id: "password", value: "correct horse battery staple" }] }) });
    const session = readTokens(signin, "header");
    await signin.json();
    const auth = new SoftwareAuthenticator(ORIGIN);
    const options = await call(t, "POST", "/webauthn/options/register", { email: "ned@example.com" });
    const credential = auth.register(options.body as never);
    const linked = await postWithSession(t.url, "/webauthn/signup", session, { webauthnGeneratedOptionsId: options.body.webauthnGeneratedOptionsId, credential, shouldTryLinkingWithSessionUser: true });
    expect(linked.json.status).toBe("OK");
    expect(linked.json.user).toMatchObject({ id: pw.user.id, isPrimaryUser: true });
    expect(linked.json.user.loginMethods.map((m: { recipeId: string; verified: boolean }) => [m.recipeId, m.verified])).toEqual([["emailpassword", true], ["webauthn", true]]);
    const back = await signIn(t, auth);
    expect(back.body.user.id).toBe(pw.user.id);
  });
});
