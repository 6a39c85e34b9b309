import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { authHeaders, credentials, jwtPayload, postJson, refresh, signUp, type Tokens } from "../helpers/session-client.js";
import { listEvents } from "../../src/store/events.js";
import { deleteDueAccounts } from "../../src/account/deletion.js";
import { getUser } from "../../src/core/users.js";

const PASSWORD = "correct horse battery staple";

async function call(t: TestApp, method: "GET" | "POST", path: string, tokens?: Tokens, body?: unknown) {
  const res = await fetch(`${t.url}/auth${path}`, {
    method,
    headers: { ...(tokens ? authHeaders(tokens) : {}), ...(body === undefined ? {} : { "content-type": "application/json" }), "user-agent": "AccountTest/1.0" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

const signIn = async (t: TestApp, email: string, password = PASSWORD) =>
  (await signUp(t.url, email, "header", "/auth/signin")).tokens;
const tokenOf = (link: string, name = "token") => new URL(link).searchParams.get(name)!;
const eventTypes = async (t: TestApp, prefix: string) => (await listEvents(t.app.store.db)).map((e) => e.type).filter((x) => x.startsWith(prefix));

describe.each(backends)("self-service account ($name)", (backend) => {
  let t: TestApp;
  let id = "";
  let mine: Tokens, other: Tokens;
  beforeEach(async () => {
    t = await createTestApp({ backend, start: true, config: { mode: "development", mailCatcher: true, mailCatcherPort: 0 } });
    const up = await signUp(t.url, "ada@example.com", "header");
    id = (up.json.user as { id: string }).id;
    mine = up.tokens;
    other = await signIn(t, "ada@example.com");
  });
  afterEach(async () => { await t.close(); });

  it("says who is signed in: id, address and when they joined, never a token; 401 without a session or once it is revoked", async () => {
    const r = await call(t, "GET", "/account/me", mine);
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.body).toEqual({ status: "OK", user: { id, email: "ada@example.com", timeJoined: expect.any(Number), locale: "en" } });
    expect((await call(t, "GET", "/account/me")).status).toBe(401);
    await call(t, "POST", "/account/sessions/revoke", other, { sessionHandle: jwtPayload(mine.access).sessionHandle });
    expect((await call(t, "GET", "/account/me", mine)).status).toBe(401);
  });

  it("lists my sessions with device, IP and last use, and revokes one, then all but this one", async () => {
    const third = await signIn(t, "ada@example.com");
    const list = await call(t, "GET", "/account/sessions", mine);
    expect(list.status).toBe(200);
    expect(list.body.sessions).toHaveLength(3);
    const current = list.body.sessions.find((s: any) => s.current);
    expect(current).toMatchObject({ sessionHandle: jwtPayload(mine.access).sessionHandle, ip: "127.0.0.1", lastUsedAt: current.createdAt });
    expect(list.body.sessions.filter((s: any) => s.current)).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toMatch(/refresh|token/i);

    // Someone else's handle (or an unknown one) revokes nothing.
    const eve = await signUp(t.url, "eve@example.com", "header");
    expect((await call(t, "POST", "/account/sessions/revoke", mine, { sessionHandle: jwtPayload(eve.tokens.access).sessionHandle })).body).toEqual({ status: "OK", revoked: 0 });
    expect((await refresh(t.url, eve.tokens)).status).toBe(200);

    expect((await call(t, "POST", "/account/sessions/revoke", mine, { sessionHandle: jwtPayload(other.access).sessionHandle })).body).toEqual({ status: "OK", revoked: 1 });
    expect((await refresh(t.url, other)).status).toBe(401);
    expect((await call(t, "POST", "/account/sessions/revoke", mine, { others: true })).body).toEqual({ status: "OK", revoked: 1, ended: { sessions: 1, "support-sessions": 0, "oauth-grants": 0 } });
    expect((await refresh(t.url, third)).status).toBe(401);
    expect((await call(t, "GET", "/account/sessions", mine)).body.sessions).toHaveLength(1);
    expect((await call(t, "POST", "/account/sessions/revoke", mine, { sessionHandle: 5 })).status).toBe(400);
    expect((await call(t, "GET", "/account/sessions")).status).toBe(401);
    expect(await eventTypes(t, "session")).toEqual(expect.arrayContaining(["session.revoked", "sessions.revoked"]));
  });

  it("changes the password with the current one: other sessions end, this one stays, a mail goes out", async () => {
    expect((await call(t, "POST", "/account/password", mine, { currentPassword: "wrong password here", newPassword: "a new long passphrase" })).body).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
    expect((await call(t, "POST", "/account/password", mine, { currentPassword: PASSWORD, newPassword: "short" })).body).toMatchObject({ status: "FIELD_ERROR", formFields: [{ id: "newPassword" }] });
    expect((await call(t, "POST", "/account/password", mine, { currentPassword: PASSWORD })).status).toBe(400);
    expect((await call(t, "POST", "/account/password", mine, { currentPassword: PASSWORD, newPassword: "a new long passphrase" })).body).toEqual({ status: "OK", revokedSessions: 1 });
    expect((await refresh(t.url, other)).status).toBe(401);
    expect((await refresh(t.url, mine)).status).toBe(200);
    await waitForCaughtMail(t.app, "ada@example.com", { action: "password-changed" });
    const signin = await postJson(`${t.url}/auth/signin`, credentials("ada@example.com", "a new long passphrase"));
    expect(((await signin.json()) as { status: string }).status).toBe("OK");
    expect(await eventTypes(t, "user.password")).toEqual(["user.password_changed"]);
  });

  it("changes the email: confirmed on the new address, the old one told; a taken address gets no mail and no hint", async () => {
    expect((await call(t, "POST", "/account/email", mine, { email: "ada@new.example", password: "wrong password here" })).body).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
    expect((await call(t, "POST", "/account/email", mine, { email: "not an address", password: PASSWORD })).body).toMatchObject({ status: "FIELD_ERROR" });
    await signUp(t.url, "bob@example.com", "header");
    expect((await call(t, "POST", "/account/email", mine, { email: "Bob@Example.com", password: PASSWORD })).body).toEqual({ status: "OK" });
    expect(await eventTypes(t, "user.email_change")).toEqual(["user.email_change_refused"]);

    expect((await call(t, "POST", "/account/email", mine, { email: "ada@new.example", password: PASSWORD })).body).toEqual({ status: "OK" });
    const mail = await waitForCaughtMail(t.app, "ada@new.example", { action: "change-email" });
    expect(mail.link).toMatch(/\/auth\/account\?token=/);
    // The link works without a session (another device), once.
    const token = tokenOf(mail.link!);
    expect((await call(t, "POST", "/account/email/confirm", undefined, { token: "nonsense" })).body).toEqual({ status: "EMAIL_CHANGE_INVALID_TOKEN_ERROR" });
    expect((await call(t, "POST", "/account/email/confirm", undefined, { token })).body).toEqual({ status: "OK", email: "ada@new.example" });
    expect((await call(t, "POST", "/account/email/confirm", undefined, { token })).body).toEqual({ status: "EMAIL_CHANGE_INVALID_TOKEN_ERROR" });
    await waitForCaughtMail(t.app, "ada@example.com", { action: "email-changed" });
    const user = await getUser(t.app.ctx, id);
    expect(user).toMatchObject({ email: "ada@new.example", verified: true });
    expect(((await (await postJson(`${t.url}/auth/signin`, credentials("ada@new.example"))).json()) as { status: string }).status).toBe("OK");
    expect(((await (await postJson(`${t.url}/auth/signin`, credentials("ada@example.com"))).json()) as { status: string }).status).toBe("WRONG_CREDENTIALS_ERROR");
    expect(await eventTypes(t, "user.email_changed")).toEqual(["user.email_changed"]);
  });

  it("a confirmation link dies when someone else took the address meanwhile (linking rules: one address, one person)", async () => {
    await call(t, "POST", "/account/email", mine, { email: "ada@new.example", password: PASSWORD });
    const token = tokenOf((await waitForCaughtMail(t.app, "ada@new.example", { action: "change-email" })).link!);
    await signUp(t.url, "ada@new.example", "header");
    expect((await call(t, "POST", "/account/email/confirm", undefined, { token })).body).toEqual({ status: "EMAIL_ALREADY_USED_ERROR" });
    expect((await getUser(t.app.ctx, id))?.email).toBe("ada@example.com");
  });

  it("deletes the account after re-authentication and a grace period; the grace mail's link cancels", async () => {
    expect((await call(t, "POST", "/account/delete", mine, { password: "wrong password here" })).body).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
    expect((await call(t, "POST", "/account/delete", mine, {})).status).toBe(400);
    const asked = await call(t, "POST", "/account/delete", mine, { password: PASSWORD });
    expect(asked.body).toEqual({ status: "OK", deleted: false, deleteAt: t.clock.now() + 7 * 86_400_000 });
    expect((await refresh(t.url, mine)).status).toBe(401);
    expect((await refresh(t.url, other)).status).toBe(401);
    const cancel = tokenOf((await waitForCaughtMail(t.app, "ada@example.com", { action: "account-deletion" })).link!);
    expect((await call(t, "POST", "/account/delete/cancel", undefined, { token: "nonsense" })).body).toEqual({ status: "DELETION_CANCEL_INVALID_TOKEN_ERROR" });
    expect((await call(t, "POST", "/account/delete/cancel", undefined, { token: cancel })).body).toEqual({ status: "OK" });
    t.clock.advance(8 * 86_400_000);
    expect(await deleteDueAccounts(t.app.ctx)).toBe(0);
    expect(await getUser(t.app.ctx, id)).toBeDefined();

    // Asked again and not cancelled: gone once the grace period has passed, with user.deleted.
    const again = await signIn(t, "ada@example.com");
    expect((await call(t, "POST", "/account/delete", again, { password: PASSWORD })).body.status).toBe("OK");
    t.clock.advance(7 * 86_400_000 - 1);
    expect(await deleteDueAccounts(t.app.ctx)).toBe(0);
    t.clock.advance(1);
    expect(await deleteDueAccounts(t.app.ctx)).toBe(1);
    expect(await getUser(t.app.ctx, id)).toBeUndefined();
    expect(await eventTypes(t, "user.delet")).toEqual(["user.deletion_scheduled", "user.deletion_cancelled", "user.deletion_scheduled", "user.deleted"]);
  });

  it("a person without a password re-authenticates by a recent sign-in", async () => {
    // Turned into a third-party-only person: the password login goes.
    await t.app.store.db.deleteFrom("email_password_credentials").where("user_id", "=", id).execute();
    expect((await call(t, "POST", "/account/password", mine, { currentPassword: PASSWORD, newPassword: "a new long passphrase" })).body).toEqual({ status: "NO_PASSWORD_LOGIN" });
    t.clock.advance(11 * 60_000);
    expect((await call(t, "POST", "/account/delete", mine, {})).body).toEqual({ status: "REAUTHENTICATION_REQUIRED" });
  });
});

describe.each(backends)("self-service deletion without a grace period ($name)", (backend) => {
  it("deletes at once", async () => {
    const t = await createTestApp({ backend, config: { accountDeletionGraceMs: 0 } });
    try {
      const up = await signUp(t.url, "ada@example.com", "header");
      expect((await call(t, "POST", "/account/delete", up.tokens, { password: PASSWORD })).body).toEqual({ status: "OK", deleted: true });
      expect(await getUser(t.app.ctx, (up.json.user as { id: string }).id)).toBeUndefined();
      expect(await eventTypes(t, "user.deleted")).toEqual(["user.deleted"]);
    } finally {
      await t.close();
    }
  });
});
