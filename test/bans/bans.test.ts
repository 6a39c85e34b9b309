import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeDeadData } from "../../src/core/purge.js";
import { listEvents } from "../../src/store/events.js";
import { listOutboxMessages } from "../../src/store/outbox.js";
import { webhookEvents } from "../../src/rooms.js";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { createTestAdmin, dashboardSession } from "../helpers/dashboard.js";
import { CookieJar, signUpInto, startOauthServer, verifyInto, type OauthServer } from "../helpers/oauth.js";
import { CONFIDENTIAL, signInWithProvider, startOidcProvider, type TestIdp } from "../helpers/oidc-provider.js";
import { pwPost } from "../helpers/passwordless.js";
import { authHeaders, credentials, modeHeaders, postJson, readTokens, refresh, type Tokens } from "../helpers/session-client.js";
import type { TestApp } from "../helpers/test-app.js";
import { PASSWORD, passkeyPerson, probes, registerApps, webauthn, type Apps } from "../helpers/ways-in.js";
import { KEY } from "../http/admin/admin-client.js";

/**
 * Bans (docs/security.md, "Bans") through HTTP, the CLI and the dashboard, on both databases: a
 * ban ends every way in at once, every sign-in method answers its SDK's generic refusal, a live
 * access token is refused at its next use, an expired ban lifts by itself, bad input changes
 * nothing.
 */

const adminApi = async (s: OauthServer, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${s.url}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { "content-type": "application/json" }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
const passwordSignIn = async (s: OauthServer, email: string) => {
  const res = await postJson(`${s.url}/auth/signin`, credentials(email, PASSWORD), { rid: "emailpassword", ...modeHeaders("header") });
  return { res, json: (await res.json()) as Record<string, any> };
};
const verifyStatus = (s: OauthServer, t: Tokens) => fetch(`${s.url}/auth/user/email/verify`, { headers: authHeaders(t) });
const cli = (s: OauthServer, args: string[]) => runCli([...args, "--database", s.app.config.database]);

/** Signs up (verified) and signs in in header mode: the person's id and a live token pair. */
async function member(s: OauthServer, email: string): Promise<{ userId: string; tokens: Tokens }> {
  await signUpInto(new CookieJar(), s.url, email);
  const { res, json } = await passwordSignIn(s, email);
  expect(json.status).toBe("OK");
  return { userId: json.user.id, tokens: readTokens(res, "header") };
}

const noSession = (res: Response) => {
  expect(res.headers.get("st-access-token")).toBeNull();
  expect(res.headers.get("front-token")).toBeNull();
  expect(res.headers.getSetCookie()).toEqual([]);
};

describe.each(backends)("bans ($name)", (backend) => {
  let s: OauthServer;
  let idp: TestIdp;
  let apps: Apps;
  beforeAll(async () => {
    idp = await startOidcProvider();
    s = await startOauthServer(backend, {
      adminApiKey: KEY,
      providers: [{ thirdPartyId: "oidc", name: "Test OIDC", oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email"] }],
    });
    apps = await registerApps(s);
  });
  afterAll(async () => { await s?.close(); await idp?.close(); });

  it("a ban through the admin API ends every way in at once, refuses the live access token and the password sign-in, and is a webhook event", async () => {
    const email = `banned-api-${backend.name}@example.com`;
    const { userId, tokens } = await member(s, email);
    const person = { email, userId, signIn: async () => { const jar = new CookieJar(); const res = await postJson(`${s.url}/auth/signin`, credentials(email, PASSWORD), { rid: "emailpassword" }); jar.take(res); return { jar, tokens: readTokens(res, "cookie") }; } };
    const opened = [];
    for (const w of s.app.ctx.waysIn) opened.push({ probe: probes[w.id], handle: await probes[w.id].open(s, apps, person) });
    expect((await verifyStatus(s, tokens)).status).toBe(200);

    const r = await adminApi(s, "POST", `/users/${userId}/ban`, { reason: "spam", until: "2099-01-01" });
    expect(r.status).toBe(200);
    expect(r.body.ban).toMatchObject({ userId, reason: "spam", until: Date.parse("2099-01-01"), source: "admin-api" });
    expect(r.body.endedWaysIn.sessions.length).toBeGreaterThanOrEqual(2);
    expect(r.body.endedWaysIn["oauth-grants"]).toHaveLength(1);

    // The live access token: refused at its next use, its tokens cleared.
    const live = await verifyStatus(s, tokens);
    expect(live.status).toBe(401);
    expect(await live.json()).toEqual({ message: "unauthorised" });
    // Every way in: the refresh token, the app's refresh token and its access token at introspection.
    for (const { probe, handle } of opened) expect(Object.values(await probe.check(s, apps, handle))).not.toContain(true);
    expect((await refresh(s.url, tokens)).status).toBe(401);
    // The right password: the SDK's generic refusal, no session.
    const again = await passwordSignIn(s, email);
    expect(again.res.status).toBe(200);
    expect(again.json).toEqual({ status: "SIGN_IN_NOT_ALLOWED", reason: expect.stringMatching(/\(ERR_CODE_008\)$/) });
    noSession(again.res);
    // A wrong password is still just wrong (a ban tells a guesser nothing).
    const wrong = await postJson(`${s.url}/auth/signin`, credentials(email, "not the password at all"), { rid: "emailpassword" });
    expect(await wrong.json()).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });

    expect((await adminApi(s, "GET", `/users/${userId}/ban`)).body.ban).toMatchObject({ reason: "spam" });
    const [event] = await listEvents(s.app.store.db, { type: "user.banned", userId });
    expect(JSON.parse(event.data!)).toMatchObject({ reason: "spam", source: "admin-api", endedWaysIn: { "oauth-grants": 1 } });
    expect(webhookEvents.types).toEqual(expect.arrayContaining(["user.banned", "user.unbanned"]));

    // Unban: the password signs in again.
    expect((await adminApi(s, "POST", `/users/${userId}/unban`)).body).toEqual({ userId, lifted: true });
    expect((await passwordSignIn(s, email)).json.status).toBe("OK");
    expect((await adminApi(s, "POST", `/users/${userId}/unban`)).body).toEqual({ userId, lifted: false });
    expect(await listEvents(s.app.store.db, { type: "user.unbanned", userId })).toHaveLength(1);
  });

  it("every sign-in method answers its generic refusal: passkey, code by mail, third-party", async () => {
    // A passkey.
    const pk = await passkeyPerson(s, `banned-passkey-${backend.name}@example.com`);
    expect((await adminApi(s, "POST", `/users/${pk.userId}/ban`, {})).status).toBe(200);
    const o = await webauthn(s, "/webauthn/options/signin", {});
    const res = await postJson(`${s.url}/auth/webauthn/signin`, { webauthnGeneratedOptionsId: o.webauthnGeneratedOptionsId, credential: pk.authenticator.authenticate(o as never) }, { rid: "webauthn" });
    expect(await res.json()).toEqual({ status: "SIGN_IN_NOT_ALLOWED", reason: expect.stringMatching(/\(ERR_CODE_030\)$/) });
    noSession(res);

    // A code by mail (the address of a password person).
    const email = `banned-code-${backend.name}@example.com`;
    const { userId } = await member(s, email);
    expect((await adminApi(s, "POST", `/users/${userId}/ban`, {})).status).toBe(200);
    const t = s as unknown as TestApp;
    const flow = await pwPost(t, "/signinup/code", { email });
    expect(flow.json.status).toBe("OK");
    const mail = (await listOutboxMessages(s.app.store.db, { to: email })).find((m) => m.kind.startsWith("passwordless_"))!;
    const code = /\b(\d{6})\b/.exec(mail.text_body!)![1];
    const consumed = await pwPost(t, "/signinup/code/consume", { deviceId: flow.json.deviceId, preAuthSessionId: flow.json.preAuthSessionId, userInputCode: code });
    expect(consumed.json).toEqual({ status: "SIGN_IN_UP_NOT_ALLOWED", reason: expect.stringMatching(/\(ERR_CODE_003\)$/) });
    noSession(consumed.res);

    // A third-party login.
    const login = `banned-idp-${backend.name}`;
    idp.accounts.set(login, { email: `${login}@example.com`, email_verified: true });
    const first = await signInWithProvider(s.url, "oidc", login);
    expect(first.json.status).toBe("OK");
    expect((await adminApi(s, "POST", `/users/${first.json.user.id}/ban`, {})).status).toBe(200);
    const second = await signInWithProvider(s.url, "oidc", login);
    expect(second.json).toEqual({ status: "SIGN_IN_UP_NOT_ALLOWED", reason: expect.stringMatching(/\(ERR_CODE_004\)$/) });
    noSession(second.res);
  });

  it("a ban until a time lifts by itself, and the purge forgets it afterwards", async () => {
    const email = `banned-until-${backend.name}@example.com`;
    const { userId } = await member(s, email);
    const r = await adminApi(s, "POST", `/users/${userId}/ban`, { until: "1h" });
    expect(r.body.ban.until).toBe(s.clock.now() + 3_600_000);
    expect((await passwordSignIn(s, email)).json.status).toBe("SIGN_IN_NOT_ALLOWED");
    s.clock.advance(3_600_001);
    const back = await passwordSignIn(s, email);
    expect(back.json.status).toBe("OK");
    expect((await verifyStatus(s, readTokens(back.res, "header"))).status).toBe(200);
    expect((await adminApi(s, "GET", `/users/${userId}/ban`)).body).toEqual({ ban: null });
    await purgeDeadData(s.app.ctx);
    expect(await s.app.store.db.selectFrom("person_bans").select("person_id").where("person_id", "=", userId).execute()).toEqual([]);
  });

  it("bad input is a clear 400 and changes nothing; an unknown person is 404", async () => {
    const email = `banned-bad-${backend.name}@example.com`;
    const { userId, tokens } = await member(s, email);
    for (const [body, message] of [
      [{ until: "2001-01-01" }, "until must be in the future"],
      [{ until: "next tuesday" }, /^until must be a time/],
      [{ reason: "x".repeat(501) }, "reason must be at most 500 characters"],
      [{ reason: 7 }, "reason must be a string"],
      [{ mail: "yes" }, "mail must be true or false"],
    ] as const) {
      const r = await adminApi(s, "POST", `/users/${userId}/ban`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toMatch(message);
    }
    expect((await adminApi(s, "GET", `/users/${userId}/ban`)).body).toEqual({ ban: null });
    expect((await verifyStatus(s, tokens)).status).toBe(200);
    expect((await adminApi(s, "POST", "/users/no-such-user/ban", {})).status).toBe(404);
    expect((await adminApi(s, "POST", "/users/no-such-user/unban")).status).toBe(404);
  });

  it("`authsvc users ban --mail` mails the person; the server refuses their live token within a second; `users unban` lifts it", async () => {
    const email = `banned-cli-${backend.name}@example.com`;
    const { tokens } = await member(s, email);
    const r = await cli(s, ["users", "ban", email, "--until", "7d", "--reason", "chargebacks", "--mail"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^banned ${email} until .+ UTC \\(reason: chargebacks\\); ended 2 sessions; mailed 1 address\\n$`));
    const [mail] = await listOutboxMessages(s.app.store.db, { kind: "account_banned", to: email });
    expect(mail.subject).toBe("Your account has been suspended");
    expect(mail.text_body).toContain("(reason: chargebacks)");
    // Another process banned them: this server's memory of bans is at most a second old.
    const deadline = Date.now() + 3000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) status = (await verifyStatus(s, tokens)).status;
    expect(status).toBe(401);
    expect((await passwordSignIn(s, email)).json.status).toBe("SIGN_IN_NOT_ALLOWED");

    expect((await cli(s, ["users", "ban", email, "--until", "yesterday"])).code).toBe(2);
    const un = await cli(s, ["users", "unban", email]);
    expect(un.stdout).toBe(`lifted the ban on ${email}\n`);
    expect((await passwordSignIn(s, email)).json.status).toBe("OK");
    expect((await cli(s, ["users", "unban", email])).stdout).toBe(`${email} was not banned\n`);
  });

  it("the ban mail is written in the person's language: German for someone who signed up in German", async () => {
    const email = `banned-de-${backend.name}@example.com`;
    const jar = new CookieJar();
    const signedUp = await postJson(`${s.url}/auth/signup`, credentials(email, PASSWORD), { "accept-language": "de-DE,de;q=0.9" });
    expect(signedUp.status).toBe(200);
    const userId = ((await signedUp.json()) as { user: { id: string } }).user.id;
    jar.take(signedUp);
    await verifyInto(jar, s.url);
    expect((await adminApi(s, "POST", `/users/${userId}/ban`, { reason: "Spam", mail: true })).status).toBe(200);
    const [mail] = await listOutboxMessages(s.app.store.db, { kind: "account_banned", to: email });
    expect(mail.subject).toBe("Dein Konto wurde gesperrt");
    expect(mail.text_body).toContain(`dein Konto (${email}) wurde bis auf Weiteres (Grund: Spam) gesperrt.`);
    expect(mail.text_body).not.toMatch(/suspended|until further notice|reason:/);
    expect(JSON.parse(mail.headers!)["Content-Language"]).toBe("de");
    expect(mail.html_body).toContain('<html lang="de"');
    expect(mail.html_body).toContain("Support kontaktieren");
  });

  it("the dashboard's person page bans with a reason and lifts the ban", async () => {
    const email = `banned-dash-${backend.name}@example.com`;
    const { userId, tokens } = await member(s, email);
    const dashboard = await dashboardSession(s.url, await createTestAdmin(s.app, { email: `admin-${backend.name}@example.com` }));
    const page = await (await dashboard.get(`/admin/users/${userId}`)).text();
    expect(page).toContain('id="ban-h"');
    expect(page).toContain(`Ban ${email}`);
    const res = await dashboard.post(`/admin/users/${userId}/ban`, { reason: "abuse", until: "" });
    expect(res.status).toBe(303);
    expect((await verifyStatus(s, tokens)).status).toBe(401);
    const after = await (await dashboard.get(`/admin/users/${userId}`)).text();
    expect(after).toMatch(/Banned: ended 2 sessions/);
    expect(after).toContain("abuse");
    expect((await adminApi(s, "GET", `/users/${userId}/ban`)).body.ban).toMatchObject({ reason: "abuse", until: null, source: expect.stringMatching(/^admin:/) });
    expect((await dashboard.post(`/admin/users/${userId}/unban`, {})).status).toBe(303);
    expect((await passwordSignIn(s, email)).json.status).toBe("OK");
    // A bad time: said on the page, nothing changed.
    expect((await dashboard.post(`/admin/users/${userId}/ban`, { reason: "", until: "2001-01-01" })).status).toBe(303);
    expect(await (await dashboard.get(`/admin/users/${userId}`)).text()).toContain("Not banned: until must be in the future.");
    expect((await adminApi(s, "GET", `/users/${userId}/ban`)).body).toEqual({ ban: null });
  });
});
