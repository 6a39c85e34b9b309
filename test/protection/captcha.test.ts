import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { call, emailOnly, signin } from "../helpers/limits.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { solveCaptcha, startSiteverify } from "./captcha-helpers.js";

const PW = "correct horse battery staple";
const signup = (email: string) => signin(email, PW);
const users = async (t: TestApp) => (await t.app.store.db.selectFrom("users").select("email").execute()).map((u) => u.email).sort();
const refused = (reason: string) => ({ status: 400, body: { message: expect.any(String), reason } });
const shape = (a: { status: number; body: any }) => ({ status: a.status, body: a.body });

describe.each(backends)("the bot check (--captcha pow) on $name", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend, config: { captcha: "pow", captchaRequired: "always", captchaDifficulty: 100, corsOrigins: ["http://localhost:3000"] } }); });
  afterAll(async () => { await t.close(); });

  it("refuses a sign-up without a solution (400, reason captcha_required) and creates nobody", async () => {
    expect(shape(await call(t, "/signup", signup("nobot@example.com")))).toEqual(refused("captcha_required"));
    expect(await users(t)).not.toContain("nobot@example.com");
  });

  it("accepts a sign-up with a solution, and refuses the same solution again with nothing created", async () => {
    const solution = await solveCaptcha(t);
    const ok = await call(t, "/signup", signup("human@example.com"), { "authsvc-captcha": solution });
    expect([ok.status, ok.body.status]).toEqual([200, "OK"]);
    expect(shape(await call(t, "/signup", signup("copycat@example.com"), { "authsvc-captcha": solution }))).toEqual(refused("captcha_used"));
    expect(await users(t)).toEqual(expect.arrayContaining(["human@example.com"]));
    expect(await users(t)).not.toContain("copycat@example.com");
  });

  it("refuses a forged solution and one whose challenge expired", async () => {
    const solution = JSON.parse(Buffer.from(await solveCaptcha(t), "base64").toString());
    const forged = { ...solution, solution: { ...solution.solution, derivedKey: "00".repeat(32) } };
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64");
    expect(shape(await call(t, "/signup", signup("forged@example.com"), { "authsvc-captcha": b64(forged) }))).toEqual(refused("captcha_invalid"));
    expect(shape(await call(t, "/signup", signup("junk@example.com"), { "authsvc-captcha": "not base64 json" }))).toEqual(refused("captcha_invalid"));
    const later = await solveCaptcha(t);
    t.clock.advance(11 * 60_000);
    try {
      expect(shape(await call(t, "/signup", signup("late@example.com"), { "authsvc-captcha": later }))).toEqual(refused("captcha_expired"));
    } finally {
      t.clock.advance(-11 * 60_000);
    }
    expect(await users(t)).not.toEqual(expect.arrayContaining(["forged@example.com"]));
  });

  it("guards sign-in, sign-in codes and reset mails the same way", async () => {
    for (const [path, body] of [["/signin", signin("human@example.com", PW)], ["/signinup/code", { email: "human@example.com" }], ["/user/password/reset/token", emailOnly("human@example.com")]] as const) {
      expect({ path, ...shape(await call(t, path, body)) }).toEqual({ path, ...refused("captcha_required") });
      const ok = await call(t, path, body, { "authsvc-captcha": await solveCaptcha(t) });
      expect({ path, status: ok.status, outcome: ok.body.status }).toEqual({ path, status: 200, outcome: "OK" });
    }
  });

  it("lets browsers on the website's origin send the header (CORS), and the used solutions are purged once expired", async () => {
    const pre = await fetch(`${t.url}/auth/signup`, { method: "OPTIONS", headers: { origin: "http://localhost:3000", "access-control-request-method": "POST", "access-control-request-headers": "authsvc-captcha" } });
    expect(pre.headers.get("access-control-allow-headers")).toContain("authsvc-captcha");
    const rule = t.app.ctx.purge.find((r) => r.name === "captchaSolutions")!;
    expect(await rule.run(t.app.ctx, t.clock.now(), 100)).toBe(0);
    expect(await rule.run(t.app.ctx, t.clock.now() + 11 * 60_000, 100)).toBeGreaterThan(0);
  });
});

describe.each(backends)("--captcha-required when-limited on $name", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend, config: { captcha: "pow", captchaRequired: "when-limited", captchaDifficulty: 100, limitSignupIp: "4/1h", limitSigninFailures: "6/1h", limitSigninFreeFailures: 5 } });
  });
  afterAll(async () => { await t.close(); });

  it("asks nothing until the client IP has spent half of its sign-up budget, then asks", async () => {
    for (const n of [1, 2]) expect((await call(t, "/signup", signup(`free${n}@example.com`))).body.status).toBe("OK");
    expect(shape(await call(t, "/signup", signup("third@example.com")))).toEqual(refused("captcha_required"));
    expect((await call(t, "/signup", signup("third@example.com"), { "authsvc-captcha": await solveCaptcha(t) })).body.status).toBe("OK");
  });

  it("asks at sign-in once the address has spent half of its failure budget, not for other addresses", async () => {
    for (let i = 0; i < 3; i++) expect((await call(t, "/signin", signin("free1@example.com", "wrong horse battery"))).body.status).toBe("WRONG_CREDENTIALS_ERROR");
    expect(shape(await call(t, "/signin", signin("free1@example.com", PW)))).toEqual(refused("captcha_required"));
    expect((await call(t, "/signin", signin("free2@example.com", PW))).body.status).toBe("OK");
    expect((await call(t, "/signin", signin("free1@example.com", PW), { "authsvc-captcha": await solveCaptcha(t) })).body.status).toBe("OK");
  });
});

describe.each(backends)("Turnstile and hCaptcha through siteverify on $name", (backend) => {
  let verify: Awaited<ReturnType<typeof startSiteverify>>;
  beforeAll(async () => { verify = await startSiteverify(); });
  afterAll(async () => { await verify.close(); });

  for (const provider of ["turnstile", "hcaptcha"] as const) {
    it(`${provider}: a token siteverify accepts passes once; a refused one and a replay are refused`, async () => {
      const t = await createTestApp({ backend, config: { captcha: provider, captchaSiteKey: "site-key", captchaSecret: "test-secret", captchaVerifyUrl: verify.url } });
      try {
        const token = `good-${provider}`;
        expect((await call(t, "/signup", signup(`${provider}@example.com`), { "authsvc-captcha": token })).body.status).toBe("OK");
        const asked = verify.requests.at(-1)!;
        expect([asked.get("secret"), asked.get("response"), asked.get("remoteip"), asked.get("sitekey")]).toEqual(["test-secret", token, "127.0.0.1", provider === "hcaptcha" ? "site-key" : null]);
        expect(shape(await call(t, "/signup", signup(`again-${provider}@example.com`), { "authsvc-captcha": token }))).toEqual(refused("captcha_used"));
        expect(shape(await call(t, "/signup", signup(`bad-${provider}@example.com`), { "authsvc-captcha": "bad-token" }))).toEqual(refused("captcha_invalid"));
        expect(shape(await call(t, "/signup", signup(`none-${provider}@example.com`)))).toEqual(refused("captcha_required"));
        expect((await call(t, "/captcha/challenge")).status).toBe(404);
      } finally {
        await t.close();
      }
    });
  }

  it("an unreachable siteverify (the same code for both providers) refuses with 503 and lets nothing through", async () => {
    const away = await createTestApp({ backend, config: { captcha: "turnstile", captchaSiteKey: "site-key", captchaSecret: "test-secret", captchaVerifyUrl: "http://127.0.0.1:9/siteverify" } });
    try {
      const r = await call(away, "/signup", signup("away@example.com"), { "authsvc-captcha": "good-token" });
      expect({ status: r.status, reason: r.body.reason, retryAfter: r.retryAfter }).toEqual({ status: 503, reason: "captcha_unavailable", retryAfter: 5 });
      expect(await users(away)).toEqual([]);
    } finally {
      await away.close();
    }
  });
});

describe("the bot check's settings", () => {
  it("is off by default: no challenge route, no header asked", async () => {
    const t = await createTestApp();
    try {
      expect((await call(t, "/captcha/challenge")).status).toBe(404);
      expect((await call(t, "/signup", signup("plain@example.com"))).body.status).toBe("OK");
    } finally {
      await t.close();
    }
  });
});
