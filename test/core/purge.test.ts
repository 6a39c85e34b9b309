import { afterEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { purgeDeadData } from "../../src/core/purge.js";
import { requestPasswordReset, resetPasswordWithToken } from "../../src/methods/email-password/password-reset.js";
import { createSession, refreshSession, revokeSession } from "../../src/core/sessions.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { insertToken } from "../../src/store/one-time-tokens.js";
import { listEvents } from "../../src/store/events.js";

const DAY = 86_400_000;

describe.each(backends)("purge of dead tokens and sessions ($name)", (backend) => {
  let t: TestApp;
  afterEach(async () => { await t?.close(); });

  it("deletes expired one-time tokens, long-ended sessions and expired refresh-token hashes; live data survives", async () => {
    t = await createTestApp({ backend, listen: false, config: { refreshTokenLifetimeMs: 2 * DAY } });
    const ctx = t.app.ctx;
    const T0 = t.clock.now();
    const at = (ms: number) => t.clock.set(T0 + ms);
    const up = await signUpWithPassword(ctx, { email: "ada@example.com", password: "correct horse battery staple" });
    if (up.status !== "OK") throw new Error("sign-up failed");
    const uid = up.user.id;

    at(-20 * DAY); const expired = await createSession(ctx, uid); // expired 18 days ago, never refreshed
    at(-10 * DAY); const signedOut = await createSession(ctx, uid);
    at(-9 * DAY); await revokeSession(ctx, signedOut.sessionHandle, uid); // ended 9 days ago
    at(-2 * DAY + 1); const recent = await createSession(ctx, uid);
    at(-1 * DAY); await revokeSession(ctx, recent.sessionHandle, uid); // ended yesterday: kept for admins
    at(-5 * DAY); const live = await createSession(ctx, uid);
    // Refreshed on time three times: the three earlier tokens expired at -3d, -2d and -0.5d.
    at(-4 * DAY); const l1 = await refreshSession(ctx, live.refreshToken);
    at(-2.5 * DAY); const l2 = await refreshSession(ctx, l1.refreshToken);
    at(-13 * 3600_000); const l3 = await refreshSession(ctx, l2.refreshToken);
    at(-30_000); const busy = await createSession(ctx, uid);
    at(-20_000); const b1 = await refreshSession(ctx, busy.refreshToken); // rotated, still within its expiry
    at(0);
    const reset = await requestPasswordReset(ctx, "ada@example.com");
    // Expired tokens of another purpose (a new request of the same purpose would retire them anyway).
    for (let i = 0; i < 5; i++) await insertToken(ctx.store.db, { token_hash: `dead-${i}`, purpose: "email_verification", user_id: uid, email: "ada@example.com", created_at: T0 - 2 * 3600_000, expires_at: T0 - 3600_000 + i });
    const eventsBefore = (await listEvents(ctx.store.db)).length;

    const r = await purgeDeadData(ctx, { batchSize: 2 }); // several batches of each kind
    expect(r).toEqual({ oneTimeTokens: 5, sessions: 2, refreshTokens: 5, rateLimits: 0, passwordlessCodes: 0, webauthnOptions: 0, captchaSolutions: 0, auditEntries: 0, expiredBans: 0, supportSessions: 0, knownDevices: 0, samlRequests: 0 }); // expired + signedOut (1 token each), live's first three

    const sessions = await ctx.store.db.selectFrom("sessions").select("handle").execute();
    expect(sessions.map((s) => s.handle).sort()).toEqual([recent.sessionHandle, live.sessionHandle, busy.sessionHandle].sort());
    expect(await ctx.store.db.selectFrom("refresh_tokens").select("token_hash").where("session_handle", "=", live.sessionHandle).execute()).toHaveLength(1);
    expect(await ctx.store.db.selectFrom("one_time_tokens").select("token_hash").execute()).toHaveLength(1);
    expect((await listEvents(ctx.store.db)).length).toBe(eventsBefore); // the audit log stays whole
    expect(await purgeDeadData(ctx)).toEqual({ oneTimeTokens: 0, sessions: 0, refreshTokens: 0, rateLimits: 0, passwordlessCodes: 0, webauthnOptions: 0, captchaSolutions: 0, auditEntries: 0, expiredBans: 0, supportSessions: 0, knownDevices: 0, samlRequests: 0 });

    // What survived still works: the live session refreshes, the reset link resets...
    expect((await refreshSession(ctx, l3.refreshToken)).sessionHandle).toBe(live.sessionHandle);
    // ...and a replay of a rotated token that has not expired is still caught as theft.
    await expect(refreshSession(ctx, busy.refreshToken)).rejects.toMatchObject({ code: "TOKEN_THEFT_DETECTED" });
    expect(b1.sessionHandle).toBe(busy.sessionHandle);
    if (reset.status !== "OK" || !reset.token) throw new Error("no reset token");
    expect((await resetPasswordWithToken(ctx, { token: reset.token, password: "a brand new passphrase" })).status).toBe("OK");
  });
});
