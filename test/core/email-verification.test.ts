import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { requestEmailVerification, verifyEmailWithToken } from "../../src/core/email-verification.js";
import { getUser } from "../../src/core/users.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { AuthError } from "../../src/core/errors.js";
import { countUserTokens } from "../../src/store/one-time-tokens.js";
import { listEvents } from "../../src/store/events.js";
import { lastCaughtMailId } from "../../src/store/caught-mail.js";
import { hashToken } from "../../src/util/random.js";

const PW = "correct horse battery staple";

describe.each(backends)("email verification core ($name)", (backend) => {
  let t: TestApp;
  let userId: string;
  beforeEach(async () => {
    t = await createTestApp({ backend, config: { mailCatcher: true, mailCatcherPort: 0 }, start: true, listen: false });
    const up = await signUpWithPassword(t.app.ctx, { email: "ada@example.com", password: PW });
    if (up.status !== "OK") throw new Error("sign-up failed");
    userId = up.user.id;
  });
  afterEach(async () => { await t.close(); });

  it("mails a token that verifies the address once", async () => {
    const r = await requestEmailVerification(t.app.ctx, userId);
    expect(r.status).toBe("OK");
    const mail = await waitForCaughtMail(t.app, "ada@example.com");
    expect(mail).toMatchObject({ action: "verify-email", subject: "Verify your email address", expiresAt: new Date(t.clock.now() + 86_400_000).toISOString() });
    expect(mail.link).toBe(`http://localhost:3000/auth/verify-email?token=${mail.token}&tenantId=public`);
    if (r.status === "OK") expect(mail.token).toBe(r.token);
    // The append-only event never holds the usable token: the link is redacted, and a hash prefix
    // lets an operator match it to the stored (hashed) token.
    const [event] = await listEvents(t.app.store.db, { type: "email_verification.token_created" });
    expect(JSON.parse(event.data!)).toEqual({
      email: "ada@example.com",
      link: "http://localhost:3000/auth/verify-email?token=REDACTED&tenantId=public",
      tokenHashPrefix: hashToken(mail.token!).slice(0, 12),
      expiresAt: t.clock.now() + 86_400_000,
      source: "api",
    });
    expect(event.data).not.toContain(mail.token!);
    const [stored] = await t.app.store.db.selectFrom("one_time_tokens").select("token_hash").execute();
    expect(stored.token_hash.startsWith(JSON.parse(event.data!).tokenHashPrefix)).toBe(true);

    expect(await verifyEmailWithToken(t.app.ctx, mail.token, { sessionUserId: userId })).toEqual({ status: "OK", userId, email: "ada@example.com" });
    expect((await getUser(t.app.ctx, userId))!.verified).toBe(true);
    expect(await verifyEmailWithToken(t.app.ctx, mail.token, { sessionUserId: userId })).toEqual({ status: "EMAIL_VERIFICATION_INVALID_TOKEN_ERROR" });
    expect(await requestEmailVerification(t.app.ctx, userId)).toEqual({ status: "EMAIL_ALREADY_VERIFIED_ERROR" });
  });

  it("a new request retires the earlier token in the same transaction; only the newest link works", async () => {
    const a = await requestEmailVerification(t.app.ctx, userId);
    const b = await requestEmailVerification(t.app.ctx, userId);
    if (a.status !== "OK" || b.status !== "OK") throw new Error("request failed");
    expect(await countUserTokens(t.app.store.db, userId, "email_verification")).toBe(1);
    expect((await verifyEmailWithToken(t.app.ctx, a.token, { sessionUserId: userId })).status).toBe("EMAIL_VERIFICATION_INVALID_TOKEN_ERROR");
    expect((await verifyEmailWithToken(t.app.ctx, b.token, { sessionUserId: userId })).status).toBe("OK");
    expect(await countUserTokens(t.app.store.db, userId, "email_verification")).toBe(0);
  });

  it("refuses a token past its day and purges it", async () => {
    const r = await requestEmailVerification(t.app.ctx, userId);
    if (r.status !== "OK") throw new Error("request failed");
    t.clock.advance(86_400_000);
    expect((await verifyEmailWithToken(t.app.ctx, r.token, { sessionUserId: userId })).status).toBe("EMAIL_VERIFICATION_INVALID_TOKEN_ERROR");
    expect(await countUserTokens(t.app.store.db, userId, "email_verification")).toBe(0);
    expect((await getUser(t.app.ctx, userId))!.verified).toBe(false);
  });

  it("does not let another signed-in user use (or burn) someone's token", async () => {
    const other = await signUpWithPassword(t.app.ctx, { email: "eve@example.com", password: PW });
    if (other.status !== "OK") throw new Error("sign-up failed");
    const r = await requestEmailVerification(t.app.ctx, userId);
    if (r.status !== "OK") throw new Error("request failed");
    expect((await verifyEmailWithToken(t.app.ctx, r.token, { sessionUserId: other.user.id })).status).toBe("EMAIL_VERIFICATION_INVALID_TOKEN_ERROR");
    expect((await verifyEmailWithToken(t.app.ctx, r.token, { sessionUserId: userId })).status).toBe("OK");
  });

  it("requires a session unless configured for token-only verification, and checks the token's type", async () => {
    const r = await requestEmailVerification(t.app.ctx, userId);
    if (r.status !== "OK") throw new Error("request failed");
    await expect(verifyEmailWithToken(t.app.ctx, r.token)).rejects.toMatchObject({ code: "UNAUTHORISED" });
    await expect(verifyEmailWithToken(t.app.ctx, undefined, { sessionUserId: userId })).rejects.toMatchObject({ code: "BAD_INPUT", message: "Please provide the email verification token" });
    await expect(verifyEmailWithToken(t.app.ctx, 42, { sessionUserId: userId })).rejects.toMatchObject({ code: "BAD_INPUT", message: "The email verification token must be a string" });
    const tokenOnly = { ...t.app.ctx, config: { ...t.app.ctx.config, emailVerificationRequiresSession: false } };
    expect((await verifyEmailWithToken(tokenOnly, r.token)).status).toBe("OK");
  });

  it("lets exactly one of 16 concurrent submissions succeed", async () => {
    const r = await requestEmailVerification(t.app.ctx, userId);
    if (r.status !== "OK") throw new Error("request failed");
    const results = await Promise.all(Array.from({ length: 16 }, () => verifyEmailWithToken(t.app.ctx, r.token, { sessionUserId: userId })));
    expect(results.filter((x) => x.status === "OK")).toHaveLength(1);
    expect(await listEvents(t.app.store.db, { type: "user.email_verified" })).toHaveLength(1);
  });

  it("answers UNAUTHORISED for a user that no longer exists, and mails nothing", async () => {
    const before = await lastCaughtMailId(t.app.store.db);
    await expect(requestEmailVerification(t.app.ctx, "no-such-user")).rejects.toBeInstanceOf(AuthError);
    await t.app.mail.flush();
    expect(await lastCaughtMailId(t.app.store.db)).toBe(before);
  });
});
