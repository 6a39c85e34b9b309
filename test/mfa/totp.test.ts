import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCode } from "../../src/methods/totp/secrets.js";
import { backends } from "../helpers/backends.js";
import { authHeaders, decodeFrontToken, jwtPayload, postWithSession, refreshAndRead, signUp, type Tokens } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const invalidClaim = (message: string) => ({ message: "invalid claim", claimValidationErrors: [{ id: "st-mfa", reason: { message } }] });
const notSatisfied = invalidClaim("MFA requirement for auth is not satisfied");
const setupRefused = invalidClaim("Completed factors in the session does not satisfy the MFA requirements for auth");
const step = 30_000;

describe.each(backends)("TOTP and the st-mfa claim on $name", (backend) => {
  let t: TestApp;
  // A secret with ≥ 32 characters: TOTP secrets are stored encrypted with it.
  beforeAll(async () => { t = await createTestApp({ backend, config: { secret: "a server secret that is long enough for tests 0123456789" } }); });
  afterAll(async () => { await t?.close(); });

  const post = (path: string, tokens: Tokens, body?: unknown) => postWithSession(t.url, path, tokens, body ?? {});
  const mfaInfo = async (tokens: Tokens) => {
    const res = await fetch(`${t.url}/auth/mfa/info`, { method: "PUT", headers: { ...authHeaders(tokens), "content-type": "application/json" }, body: "{}" });
    return { res, json: (await res.json()) as Record<string, any> };
  };
  const claim = (tokens: Tokens) => jwtPayload(tokens.access)["st-mfa"];
  /** Signs up, sets up a device and verifies it; the secret, the tokens and the recovery codes. */
  async function userWithTotp(email: string) {
    const up = await signUp(t.url, email, "header");
    const dev = await post("/totp/device", up.tokens);
    const code = generateCode(dev.json.secret, t.clock.now());
    const v = await post("/totp/device/verify", up.tokens, { deviceName: dev.json.deviceName, totp: code });
    expect(v.json.status).toBe("OK");
    return { secret: dev.json.secret as string, tokens: v.tokens!, recoveryCodes: v.json.recoveryCodes as string[] };
  }
  const signIn = async (email: string) => (await signUp(t.url, email, "header", "/auth/signin")).tokens;

  it("every access token and front-token carries st-mfa: the first factor completed, v true while nothing is required", async () => {
    const up = await signUp(t.url, "plain@example.com", "header");
    const now = Math.floor(t.clock.now() / 1000);
    expect(claim(up.tokens)).toEqual({ c: { emailpassword: now }, v: true });
    expect(decodeFrontToken(up.res.headers.get("front-token")!).up["st-mfa"]).toEqual({ c: { emailpassword: now }, v: true });
    const info = await mfaInfo(up.tokens);
    expect(info.res.status).toBe(200);
    expect(info.json).toEqual({
      status: "OK",
      factors: { next: [], alreadySetup: ["emailpassword"], allowedToSetup: ["totp"] },
      emails: { emailpassword: ["plain@example.com"], "otp-email": ["plain@example.com"], "link-email": ["plain@example.com"] },
      phoneNumbers: { "otp-phone": [], "link-phone": [] },
    });
    expect(info.res.headers.get("front-token")).toBeNull(); // nothing changed: nothing re-signed
    // After a refresh the claim is recomputed from the stored factors.
    const r = await refreshAndRead(t.url, up.tokens);
    expect(jwtPayload(r.tokens.access)["st-mfa"]).toEqual({ c: { emailpassword: now }, v: true });
  });

  it("set-up: a device with a Base32 160-bit secret and an otpauth URI, verified by a code; recovery codes once; secrets encrypted at rest", async () => {
    const up = await signUp(t.url, "setup@example.com", "header");
    const first = await post("/totp/device", up.tokens);
    expect(first.json).toMatchObject({ status: "OK", deviceName: "TOTP Device 0" });
    expect(first.json.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(first.json.qrCodeString).toBe(`otpauth://totp/authsvc:setup%40example.com?issuer=authsvc&secret=${first.json.secret}&algorithm=SHA1&digits=6&period=30`);
    // Creating an unverified device of the same name again replaces it (a new secret).
    const again = await post("/totp/device", up.tokens, { deviceName: "TOTP Device 0" });
    expect(again.json.status).toBe("OK");
    expect(again.json.secret).not.toBe(first.json.secret);
    const rows = await t.app.store.db.selectFrom("totp_devices").selectAll().execute();
    const row = rows.find((r) => r.name === "TOTP Device 0" && r.secret_enc.includes("enc:v1:"))!;
    expect(row.secret_enc.startsWith("enc:v1:")).toBe(true);
    expect(rows.some((r) => r.secret_enc.includes(again.json.secret))).toBe(false);

    const list = await fetch(`${t.url}/auth/totp/device/list`, { headers: authHeaders(up.tokens) });
    expect(await list.json()).toEqual({ status: "OK", devices: [{ name: "TOTP Device 0", period: 30, skew: 1, verified: false }] });

    const wrong = await post("/totp/device/verify", up.tokens, { deviceName: "TOTP Device 0", totp: "000000" === generateCode(again.json.secret, t.clock.now()) ? "111111" : "000000" });
    expect(wrong.json).toEqual({ status: "INVALID_TOTP_ERROR", currentNumberOfFailedAttempts: 1, maxNumberOfFailedAttempts: 5 });
    const unknown = await post("/totp/device/verify", up.tokens, { deviceName: "nope", totp: "123456" });
    expect(unknown.json).toEqual({ status: "UNKNOWN_DEVICE_ERROR" });

    const ok = await post("/totp/device/verify", up.tokens, { deviceName: "TOTP Device 0", totp: generateCode(again.json.secret, t.clock.now()) });
    expect(ok.json.status).toBe("OK");
    expect(ok.json.wasAlreadyVerified).toBe(false);
    expect(ok.json.recoveryCodes).toHaveLength(10);
    expect(new Set(ok.json.recoveryCodes).size).toBe(10);
    for (const c of ok.json.recoveryCodes) expect(c).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){6}$/);
    const now = Math.floor(t.clock.now() / 1000);
    expect(claim(ok.tokens!)).toEqual({ c: { emailpassword: now, totp: now }, v: true });
    expect(decodeFrontToken(ok.res.headers.get("front-token")!).up["st-mfa"]).toEqual({ c: { emailpassword: now, totp: now }, v: true });
    // Only hashes are stored.
    const stored = await t.app.store.db.selectFrom("mfa_recovery_codes").select("code_hash").execute();
    expect(stored.some((r) => ok.json.recoveryCodes.some((c: string) => r.code_hash.includes(c)))).toBe(false);

    expect((await post("/totp/device", ok.tokens!, { deviceName: "TOTP Device 0" })).json).toEqual({ status: "DEVICE_ALREADY_EXISTS_ERROR" });
    t.clock.advance(step);
    const twice = await post("/totp/device/verify", ok.tokens!, { deviceName: "TOTP Device 0", totp: generateCode(again.json.secret, t.clock.now()) });
    expect(twice.json).toEqual({ status: "OK", wasAlreadyVerified: true });
  });

  it("the next sign-in has v false: 403 on protected routes until /totp/verify; the code works once; refresh keeps the factor", async () => {
    const u = await userWithTotp("signin@example.com");
    t.clock.advance(step);
    const s = await signIn("signin@example.com");
    expect(claim(s)).toEqual({ c: { emailpassword: Math.floor(t.clock.now() / 1000) }, v: false });
    const blocked = await post("/totp/recovery-codes", s);
    expect(blocked.res.status).toBe(403);
    expect(blocked.json).toEqual(notSatisfied);
    expect((await mfaInfo(s)).json.factors).toEqual({ next: ["totp"], alreadySetup: ["emailpassword", "totp"], allowedToSetup: [] });
    // A password alone neither adds a device nor removes the one there is.
    expect((await post("/totp/device", s, { deviceName: "attacker's phone" })).json).toEqual(setupRefused);
    const rm = await post("/totp/device/remove", s, { deviceName: "TOTP Device 0" });
    expect(rm.res.status).toBe(403);
    // A refresh does not complete anything.
    const r0 = await refreshAndRead(t.url, s);
    expect(jwtPayload(r0.tokens.access)["st-mfa"].v).toBe(false);

    const code = generateCode(u.secret, t.clock.now());
    const ok = await post("/totp/verify", r0.tokens, { totp: code });
    expect(ok.json).toEqual({ status: "OK" });
    expect(claim(ok.tokens!)).toEqual({ c: { emailpassword: expect.any(Number), totp: Math.floor(t.clock.now() / 1000) }, v: true });
    expect((await post("/totp/recovery-codes", ok.tokens!)).json.recoveryCodes).toHaveLength(10);
    const r1 = await refreshAndRead(t.url, ok.tokens!);
    expect(jwtPayload(r1.tokens.access)["st-mfa"]).toEqual(claim(ok.tokens!));

    // The same code again, from another session within its lifetime: a replay, refused.
    const other = await signIn("signin@example.com");
    expect((await post("/totp/verify", other, { totp: code })).json).toEqual({ status: "INVALID_TOTP_ERROR", currentNumberOfFailedAttempts: 1, maxNumberOfFailedAttempts: 5 });
    expect(claim(other).v).toBe(false);
  });

  it("clock skew: codes of the previous and next step are accepted, two steps off refused", async () => {
    const u = await userWithTotp("skew@example.com");
    const s = await signIn("skew@example.com");
    const at = (d: number) => generateCode(u.secret, t.clock.now() + d * step);
    expect((await post("/totp/verify", s, { totp: at(2) })).json.status).toBe("INVALID_TOTP_ERROR");
    expect((await post("/totp/verify", s, { totp: at(-2) })).json.status).toBe("INVALID_TOTP_ERROR");
    expect((await post("/totp/verify", s, { totp: at(-1) })).json.status).toBe("OK");
    expect((await post("/totp/verify", s, { totp: at(1) })).json.status).toBe("OK");
  });

  it("five wrong codes lock the person out for 15 minutes after the last one, even with the right code; then it works", async () => {
    const u = await userWithTotp("lock@example.com");
    const s = await signIn("lock@example.com");
    const good = () => generateCode(u.secret, t.clock.now());
    const bad = () => (good() === "999999" ? "999998" : "999999");
    for (let i = 1; i <= 5; i++) {
      expect((await post("/totp/verify", s, { totp: bad() })).json).toEqual({ status: "INVALID_TOTP_ERROR", currentNumberOfFailedAttempts: i, maxNumberOfFailedAttempts: 5 });
    }
    expect((await post("/totp/verify", s, { totp: good() })).json).toEqual({ status: "LIMIT_REACHED_ERROR", retryAfterMs: 15 * 60_000 });
    // Recovery codes share the lock.
    expect((await post("/totp/recovery-code/verify", s, { recoveryCode: u.recoveryCodes[0] })).json.status).toBe("LIMIT_REACHED_ERROR");
    t.clock.advance(15 * 60_000 - 1000);
    // The access token has expired meanwhile: refresh (the claim stays v false).
    const r = await refreshAndRead(t.url, s);
    expect(jwtPayload(r.tokens.access)["st-mfa"].v).toBe(false);
    expect((await post("/totp/verify", r.tokens, { totp: good() })).json).toEqual({ status: "LIMIT_REACHED_ERROR", retryAfterMs: 1000 });
    t.clock.advance(1000);
    const ok = await post("/totp/verify", r.tokens, { totp: good() });
    expect(ok.json.status).toBe("OK");
    expect(claim(ok.tokens!).v).toBe(true);
  });

  it("recovery codes: each works once in place of a code and mails the owner; a new set retires the old one", async () => {
    const u = await userWithTotp("recover@example.com");
    const s = await signIn("recover@example.com");
    const used = await post("/totp/recovery-code/verify", s, { recoveryCode: u.recoveryCodes[0].toUpperCase().replace(/-/g, " ") });
    expect(used.json).toEqual({ status: "OK", remainingRecoveryCodes: 9 });
    expect(claim(used.tokens!).v).toBe(true);
    expect(claim(used.tokens!).c.totp).toBe(Math.floor(t.clock.now() / 1000));
    const mail = await t.app.store.db.selectFrom("mail_outbox").selectAll().where("to_address", "=", "recover@example.com").where("kind", "=", "mfa_recovery_code_used").execute();
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toBe("A recovery code was used to sign in");

    const s2 = await signIn("recover@example.com");
    expect((await post("/totp/recovery-code/verify", s2, { recoveryCode: u.recoveryCodes[0] })).json).toEqual({ status: "INVALID_RECOVERY_CODE_ERROR", currentNumberOfFailedAttempts: 1, maxNumberOfFailedAttempts: 5 });
    const fresh = await post("/totp/recovery-codes", used.tokens!);
    expect(fresh.json.status).toBe("OK");
    expect(fresh.json.recoveryCodes).toHaveLength(10);
    expect((await post("/totp/recovery-code/verify", s2, { recoveryCode: u.recoveryCodes[1] })).json.status).toBe("INVALID_RECOVERY_CODE_ERROR");
    expect((await post("/totp/recovery-code/verify", s2, { recoveryCode: fresh.json.recoveryCodes[1] })).json).toEqual({ status: "OK", remainingRecoveryCodes: 9 });
  });

  it("removing the last verified device (with v true) turns TOTP off: the next sign-in needs no code", async () => {
    const u = await userWithTotp("remove@example.com");
    expect((await post("/totp/device/remove", u.tokens, { deviceName: "nope" })).json).toEqual({ status: "OK", didDeviceExist: false });
    expect((await post("/totp/device/remove", u.tokens, { deviceName: "TOTP Device 0" })).json).toEqual({ status: "OK", didDeviceExist: true });
    const s = await signIn("remove@example.com");
    expect(claim(s).v).toBe(true);
    expect((await post("/totp/verify", s, { totp: "123456" })).json).toEqual({ status: "UNKNOWN_USER_ID_ERROR" });
    expect(await t.app.store.db.selectFrom("mfa_recovery_codes").selectAll().where("user_id", "=", jwtPayload(s.access).sub).execute()).toEqual([]);
  });

  it("bad input is a 400 with a message and changes nothing; no session is a 401", async () => {
    const up = await signUp(t.url, "input@example.com", "header");
    for (const [path, body, message] of [
      ["/totp/verify", {}, "totp is required and must be a string"],
      ["/totp/verify", { totp: 123456 }, "totp is required and must be a string"],
      ["/totp/device/verify", { totp: "123456" }, "deviceName is required and must be a string"],
      ["/totp/device/remove", { deviceName: ["x"] }, "deviceName is required and must be a string"],
      ["/totp/device", { deviceName: 5 }, "deviceName must be a non-empty string of at most 256 characters"],
      ["/totp/recovery-code/verify", {}, "recoveryCode is required and must be a string"],
    ] as const) {
      const r = await post(path, up.tokens, body);
      expect(r.res.status, path).toBe(400);
      expect(r.json).toEqual({ message });
    }
    expect(await t.app.store.db.selectFrom("totp_devices").selectAll().where("user_id", "=", jwtPayload(up.tokens.access).sub).execute()).toEqual([]);
    const anon = await fetch(`${t.url}/auth/totp/device`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(anon.status).toBe(401);
  });
});

describe.each(backends)("--mfa required on $name", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend, config: { mfa: "required" } }); });
  afterAll(async () => { await t?.close(); });

  it("every user sets TOTP up at the next sign-in: v false until then, set-up allowed, then v true", async () => {
    const up = await signUp(t.url, "everyone@example.com", "cookie");
    expect(jwtPayload(up.tokens.access)["st-mfa"].v).toBe(false);
    const info = await fetch(`${t.url}/auth/mfa/info`, { method: "PUT", headers: { ...authHeaders(up.tokens), "content-type": "application/json" }, body: "{}" });
    expect(((await info.json()) as { factors: unknown }).factors).toEqual({ next: ["totp"], alreadySetup: ["emailpassword"], allowedToSetup: ["totp"] });
    const dev = await postWithSession(t.url, "/totp/device", up.tokens, {});
    expect(dev.json.status).toBe("OK");
    const ok = await postWithSession(t.url, "/totp/device/verify", up.tokens, { deviceName: dev.json.deviceName, totp: generateCode(dev.json.secret, t.clock.now()) });
    expect(ok.json.status).toBe("OK");
    expect(jwtPayload(ok.tokens!.access)["st-mfa"].v).toBe(true);
  });
});
