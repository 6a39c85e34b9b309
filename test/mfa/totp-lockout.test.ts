import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCode } from "../../src/methods/totp/secrets.js";
import { backends } from "../helpers/backends.js";
import { postWithSession, refreshAndRead, signUp, type Tokens } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/**
 * Finding 7 of the sign-in hardening: the 5-attempt TOTP lock-out must hold under concurrency on
 * both databases. On PostgreSQL a read-then-count let concurrent wrong codes all see "under the
 * cap" and all be checked; now each check is admitted by one conditional statement.
 */
describe.each(backends)("TOTP lock-out under concurrency ($name)", (backend) => {
  let t: TestApp;
  let n = 0;
  beforeAll(async () => { t = await createTestApp({ backend, config: { secret: "a server secret that is long enough for tests 0123456789", limitTokenIp: "10000/15m" } }); });
  afterAll(async () => { await t?.close(); });

  /** A person with a verified TOTP device, signed in again: the new session still needs its code. */
  async function signedInNeedingCode(): Promise<{ secret: string; tokens: Tokens; recoveryCodes: string[] }> {
    const email = `lock${++n}-${backend.name}@example.com`;
    const up = await signUp(t.url, email, "header");
    const dev = await postWithSession(t.url, "/totp/device", up.tokens, {});
    const v = await postWithSession(t.url, "/totp/device/verify", up.tokens, { deviceName: dev.json.deviceName, totp: generateCode(dev.json.secret, t.clock.now()) });
    expect(v.json.status).toBe("OK");
    t.clock.advance(90_000); // past the used code's window
    const again = await signUp(t.url, email, "header", "/auth/signin");
    return { secret: dev.json.secret, tokens: again.tokens, recoveryCodes: v.json.recoveryCodes };
  }
  const wrongCode = (secret: string) => (Number(generateCode(secret, t.clock.now())) + 500_000) % 1_000_000;

  it("50 concurrent wrong codes: at most 5 are checked, the rest are LIMIT_REACHED_ERROR, and then even the right code waits", async () => {
    const { secret, tokens } = await signedInNeedingCode();
    const wrong = String(wrongCode(secret)).padStart(6, "0");
    const answers = await Promise.all(Array.from({ length: 50 }, () => postWithSession(t.url, "/totp/verify", tokens, { totp: wrong })));
    const statuses = answers.map((a) => a.json.status as string);
    expect(statuses.filter((s) => s === "INVALID_TOTP_ERROR").length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s !== "INVALID_TOTP_ERROR").every((s) => s === "LIMIT_REACHED_ERROR")).toBe(true);
    const counted = answers.filter((a) => a.json.status === "INVALID_TOTP_ERROR").map((a) => a.json.currentNumberOfFailedAttempts).sort();
    expect(counted).toEqual([1, 2, 3, 4, 5].slice(0, counted.length));
    const right = await postWithSession(t.url, "/totp/verify", tokens, { totp: generateCode(secret, t.clock.now()) });
    expect(right.json.status).toBe("LIMIT_REACHED_ERROR");
    expect(right.json.retryAfterMs).toBeGreaterThan(14 * 60_000);
    // After the cool-down the right code works.
    t.clock.advance(15 * 60_000);
    const renewed = (await refreshAndRead(t.url, tokens)).tokens;
    expect((await postWithSession(t.url, "/totp/verify", renewed, { totp: generateCode(secret, t.clock.now()) })).json.status).toBe("OK");
  });

  it("wrong recovery codes and wrong TOTP codes in parallel share the one lock", async () => {
    const { secret, tokens } = await signedInNeedingCode();
    const wrong = String(wrongCode(secret)).padStart(6, "0");
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => i % 2
      ? postWithSession(t.url, "/totp/verify", tokens, { totp: wrong })
      : postWithSession(t.url, "/totp/recovery-code/verify", tokens, { recoveryCode: "aaaa-bbbb-cccc-dddd-eeee-ffff-gggg" })));
    const checked = answers.filter((a) => a.json.status === "INVALID_TOTP_ERROR" || a.json.status === "INVALID_RECOVERY_CODE_ERROR");
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(answers.length - checked.length).toBe(answers.filter((a) => a.json.status === "LIMIT_REACHED_ERROR").length);
  });
});
