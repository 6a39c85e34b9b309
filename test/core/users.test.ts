import { hash as plainBcrypt } from "@node-rs/bcrypt";
import { afterEach, describe, expect, it } from "vitest";
import type { CoreContext } from "../../src/core/context.js";
import { hashCost, hashPassword } from "../../src/core/passwords.js";
import { deleteUser, findUser, listUsers, toUserJson, verifyUserEmail } from "../../src/core/users.js";
import { setPassword, signInWithPassword, signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { listEvents } from "../../src/store/events.js";
import { requestPasswordReset, resetPasswordWithToken } from "../../src/methods/email-password/password-reset.js";
import { countUserTokens } from "../../src/store/one-time-tokens.js";
import { listOutboxMessages } from "../../src/store/outbox.js";
import { lastCaughtMailId, listCaughtMail } from "../../src/store/caught-mail.js";
import { eventually, waitForCaughtMail } from "../helpers/mail.js";
import * as store from "../../src/store/users.js";
import * as credentials from "../../src/methods/email-password/store.js";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const PW = "correct horse battery staple";

describe.each(backends)("core users on $name", (backend) => {
  let t: TestApp;
  afterEach(async () => { await t?.close(); });
  const open = async () => { t = await createTestApp({ backend, listen: false }); return t.app.ctx; };
  const storedHash = async (ctx: CoreContext, email: string) => (await credentials.findCredentialByEmail(ctx.store.db, email))!.password_hash;
  const withCost = (ctx: CoreContext, bcryptCost: number): CoreContext => ({ ...ctx, config: { ...ctx.config, bcryptCost } });

  it("signs up with the canonical email, once", async () => {
    const ctx = await open();
    const r = await signUpWithPassword(ctx, { email: "  Ada@Example.COM ", password: PW });
    expect(r.status).toBe("OK");
    if (r.status !== "OK") return;
    expect(r.user).toMatchObject({ email: "ada@example.com", verified: false });
    expect(await signUpWithPassword(ctx, { email: "ada@example.com", password: PW })).toEqual({
      status: "FIELD_ERROR", formFields: [{ id: "email", error: "This email already exists. Please sign in instead." }],
    });
    expect(JSON.stringify(toUserJson(r.user))).not.toMatch(/hash|bcrypt|\$2[aby]\$|"password/i);
    expect((await listEvents(ctx.store.db, { type: "user.signed_up" })).length).toBe(1);
  });

  it("lists password errors before email errors and changes nothing", async () => {
    const ctx = await open();
    const r = await signUpWithPassword(ctx, { email: "not-an-email", password: "short" });
    expect(r).toEqual({ status: "FIELD_ERROR", formFields: [
      { id: "password", error: "Password must be at least 8 characters long." },
      { id: "email", error: "Email is invalid" },
    ] });
    expect(await signUpWithPassword(ctx, { email: "ada@example.com", password: "ada@example.com" })).toMatchObject({ status: "FIELD_ERROR", formFields: [{ id: "password" }] });
    expect(await listUsers(ctx)).toEqual([]);
  });

  it("one account per address under concurrent sign-ups", async () => {
    const ctx = await open();
    const results = await Promise.all(Array.from({ length: 10 }, () => signUpWithPassword(ctx, { email: "race@example.com", password: PW })));
    expect(results.filter((r) => r.status === "OK").length).toBe(1);
    expect((await listUsers(ctx)).length).toBe(1);
  });

  it("signs in with the exact password only; unknown email looks the same as a wrong password", async () => {
    const ctx = await open();
    await signUpWithPassword(ctx, { email: "ada@example.com", password: `  ${PW}  ` });
    expect((await signInWithPassword(ctx, { email: "ADA@example.com", password: `  ${PW}  ` })).status).toBe("OK");
    expect(await signInWithPassword(ctx, { email: "ada@example.com", password: PW })).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
    expect(await signInWithPassword(ctx, { email: "nobody@example.com", password: PW })).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
  });

  it("rehashes on sign-in when the configured cost changed, and not on a wrong password", async () => {
    const ctx = await open();
    await signUpWithPassword(ctx, { email: "ada@example.com", password: PW });
    expect(hashCost(await storedHash(ctx, "ada@example.com"))).toBe(4);
    const raised = withCost(ctx, 5);
    expect((await signInWithPassword(raised, { email: "ada@example.com", password: "wrong password here" })).status).toBe("WRONG_CREDENTIALS_ERROR");
    expect(hashCost(await storedHash(ctx, "ada@example.com"))).toBe(4);
    expect((await signInWithPassword(raised, { email: "ada@example.com", password: PW })).status).toBe("OK");
    const after = await storedHash(ctx, "ada@example.com");
    expect(after).toMatch(/^bcrypt-sha384:\$2[aby]\$05\$/);
    // The new hash still verifies, and a second sign-in at the same cost leaves it alone.
    expect((await signInWithPassword(raised, { email: "ada@example.com", password: PW })).status).toBe("OK");
    expect(await storedHash(ctx, "ada@example.com")).toBe(after);
  });

  it("upgrades an imported plain $2b$ hash to the current scheme on sign-in", async () => {
    const ctx = await open();
    const imported = await plainBcrypt(PW, { cost: 4 });
    expect(imported).toMatch(/^\$2b\$04\$/);
    await ctx.store.writeTx(async (tx) => {
      await store.insertUser(tx, { id: "imported-1", email: "old@example.com", time_joined: 1, updated_at: 1 });
      await credentials.insertCredential(tx, { user_id: "imported-1", email: "old@example.com", password_hash: imported, created_at: 1, updated_at: 1 });
    });
    expect((await signInWithPassword(ctx, { email: "old@example.com", password: PW })).status).toBe("OK");
    const upgraded = await storedHash(ctx, "old@example.com");
    expect(upgraded).toMatch(/^bcrypt-sha384:\$2[aby]\$04\$/);
    expect((await signInWithPassword(ctx, { email: "old@example.com", password: PW })).status).toBe("OK");
  });

  it("setPassword checks the policy, changes the hash and revokes every session in one go", async () => {
    const ctx = await open();
    const r = await signUpWithPassword(ctx, { email: "ada@example.com", password: PW });
    if (r.status !== "OK") throw new Error("sign-up failed");
    const now = t.clock.now();
    await ctx.store.db.insertInto("sessions").values([
      { handle: "s1", user_id: r.user.id, created_at: now, expires_at: now + 1e6, last_refreshed_at: null, revoked_at: null, revoke_reason: null },
      { handle: "s2", user_id: r.user.id, created_at: now, expires_at: now + 1e6, last_refreshed_at: null, revoked_at: null, revoke_reason: null },
    ]).execute();
    expect(await setPassword(ctx, r.user.id, "short")).toMatchObject({ status: "FIELD_ERROR" });
    t.clock.advance(1000);
    expect(await setPassword(ctx, r.user.id, "a brand new passphrase")).toEqual({ status: "OK", revokedSessions: 2 });
    const sessions = await ctx.store.db.selectFrom("sessions").select(["revoked_at", "revoke_reason"]).execute();
    expect(sessions).toEqual([{ revoked_at: now + 1000, revoke_reason: "password_changed" }, { revoked_at: now + 1000, revoke_reason: "password_changed" }]);
    expect((await signInWithPassword(ctx, { email: "ada@example.com", password: PW })).status).toBe("WRONG_CREDENTIALS_ERROR");
    expect((await signInWithPassword(ctx, { email: "ada@example.com", password: "a brand new passphrase" })).status).toBe("OK");
    expect(await setPassword(ctx, "no-such-user", "a brand new passphrase")).toEqual({ status: "NO_PASSWORD_LOGIN" });
  });

  it("setPassword also deletes the outstanding reset token and mails the 'password changed' notice after commit", async () => {
    t = await createTestApp({ backend, listen: false, start: true, config: { mailCatcher: true, mailCatcherPort: 0 } });
    const ctx = t.app.ctx;
    const r = await signUpWithPassword(ctx, { email: "ada@example.com", password: PW });
    if (r.status !== "OK") throw new Error("sign-up failed");
    // The second request retires the first token: one live token, two mails.
    const links = [await requestPasswordReset(ctx, "ada@example.com"), await requestPasswordReset(ctx, "ada@example.com")];
    expect(await countUserTokens(ctx.store.db, r.user.id, "password_reset")).toBe(1);
    await eventually(async () => (await listCaughtMail(ctx.store.db, { to: "ada@example.com" })).length === 2); // the two reset mails
    const before = await lastCaughtMailId(ctx.store.db);
    // A policy failure changes nothing: the tokens stay, no mail.
    expect(await setPassword(ctx, r.user.id, "short")).toMatchObject({ status: "FIELD_ERROR" });
    expect(await countUserTokens(ctx.store.db, r.user.id, "password_reset")).toBe(1);
    expect(await listOutboxMessages(ctx.store.db, { kind: "password_changed" })).toEqual([]);

    expect(await setPassword(ctx, r.user.id, "a brand new passphrase", "cli")).toEqual({ status: "OK", revokedSessions: 0 });
    expect(await countUserTokens(ctx.store.db, r.user.id, "password_reset")).toBe(0);
    // A reset link mailed before cannot undo the administrator's password.
    for (const l of links) expect(await resetPasswordWithToken(ctx, { token: l.status === "OK" ? l.token : "", password: "attacker chosen phrase" })).toEqual({ status: "RESET_PASSWORD_INVALID_TOKEN_ERROR" });
    expect((await signInWithPassword(ctx, { email: "ada@example.com", password: "a brand new passphrase" })).status).toBe("OK");
    const [event] = await listEvents(ctx.store.db, { type: "user.password_changed" });
    expect(JSON.parse(event.data!)).toEqual({ source: "cli", revokedSessions: 0, endedWaysIn: { sessions: 0, "support-sessions": 0, "oauth-grants": 0 }, deletedResetTokens: 1 });
    // Queued in the same transaction, delivered by the worker (kicked after commit) to the catcher.
    const mail = await waitForCaughtMail(t.app, "ada@example.com", { afterId: before });
    expect(mail.subject).toBe("Your password was changed");
    expect(mail.token).toBeNull();
  });

  it("finds by email or id, verifies, and deletes with everything attached", async () => {
    const ctx = await open();
    const r = await signUpWithPassword(ctx, { email: "ada@example.com", password: PW });
    if (r.status !== "OK") throw new Error("sign-up failed");
    expect((await findUser(ctx, "ADA@example.com"))?.id).toBe(r.user.id);
    expect((await findUser(ctx, r.user.id))?.email).toBe("ada@example.com");
    expect(await findUser(ctx, "nobody@example.com")).toBeUndefined();
    expect(await verifyUserEmail(ctx, r.user.id, "test")).toBe(true);
    expect(await verifyUserEmail(ctx, r.user.id, "test")).toBe(false);
    expect((await findUser(ctx, r.user.id))?.verified).toBe(true);
    expect(await deleteUser(ctx, r.user.id)).toBe(true);
    expect(await deleteUser(ctx, r.user.id)).toBe(false);
    expect(await findUser(ctx, "ada@example.com")).toBeUndefined();
    expect(await credentials.findCredentialByEmail(ctx.store.db, "ada@example.com")).toBeUndefined();
    // The audit log keeps the story.
    expect((await listEvents(ctx.store.db, { userId: r.user.id })).map((e) => e.type)).toEqual(["user.signed_up", "user.email_verified", "user.deleted"]);
  });

  it("hashes before the transaction: a stored hash is never the plain password", async () => {
    const ctx = await open();
    await signUpWithPassword(ctx, { email: "ada@example.com", password: PW });
    const h = await storedHash(ctx, "ada@example.com");
    expect(h).not.toContain(PW);
    expect(h).not.toBe(await hashPassword(PW, 4));
  });
});

describe("core users: rehash is best effort", () => {
  it("a correct sign-in succeeds even when the upgraded hash cannot be written (database locked)", async () => {
    const { default: Database } = await import("better-sqlite3");
    const { createApp } = await import("../../src/app.js");
    const { testConfig } = await import("../../src/config.js");
    const { openStore } = await import("../../src/store/database.js");
    const { sqliteBackend } = await import("../helpers/backends.js");
    const db = await sqliteBackend.create();
    // A short busy timeout so the locked write gives up quickly.
    const locked = openStore({ url: db.url, busyTimeoutMs: 50 });
    const app = await createApp(testConfig({ database: db.url }), { store: locked });
    const other = new Database(db.url);
    try {
      await app.migrate();
      await signUpWithPassword(app.ctx, { email: "ada@example.com", password: PW });
      other.exec("begin immediate"); // another process holds the write lock
      const raised = { ...app.ctx, config: { ...app.ctx.config, bcryptCost: 5 } };
      expect((await signInWithPassword(raised, { email: "ada@example.com", password: PW })).status).toBe("OK");
      other.exec("rollback");
      // The old hash stayed (cost 4); the next sign-in will try the upgrade again, and succeed.
      expect(hashCost((await credentials.findCredentialByEmail(locked.db, "ada@example.com"))!.password_hash)).toBe(4);
      expect((await signInWithPassword(raised, { email: "ada@example.com", password: PW })).status).toBe("OK");
      expect(hashCost((await credentials.findCredentialByEmail(locked.db, "ada@example.com"))!.password_hash)).toBe(5);
    } finally {
      other.close();
      await app.close();
      await locked.close();
      await db.drop();
    }
  });
});
