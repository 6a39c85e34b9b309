import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCode } from "../../src/methods/totp/secrets.js";
import { backends } from "../helpers/backends.js";
import { lastMailId, pwPost, readSignInMail } from "../helpers/passwordless.js";
import { jwtPayload, postJson, postWithSession, readTokens, type Tokens } from "../helpers/session-client.js";
import { SoftwareAuthenticator } from "../helpers/software-authenticator.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { admin, KEY } from "../http/admin/admin-client.js";

/**
 * Issue 48 for the passwordless, second-factor and passkey rooms, through the real HTTP stack and
 * real SMTP into the catcher: the language a person signs up in (the page's cookie, else the
 * browser's Accept-Language) is stored, and their sign-in codes, second-factor notices and passkey
 * recovery mail are written in it, whatever browser asks later, with Content-Language and <html lang dir>.
 */
describe.each(backends)("words: the sign-in methods' mails in the person's language ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend, start: true, config: { mode: "production", mailCatcher: true, mailCatcherPort: 0, smtpUrl: undefined, adminApiKey: KEY, limitMailIp: "1000/1h", limitTokenIp: "1000/15m" } });
  });
  afterAll(async () => { await t?.close(); });

  /** The caught mail's row (as it arrived over SMTP): headers lower-cased, bodies. */
  const row = async (id: number) => {
    const r = await t.app.store.db.selectFrom("caught_mail").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    return { subject: r.subject ?? "", text: r.text_body ?? "", html: r.html_body ?? "", headers: (r.headers ?? "").toLowerCase() };
  };
  /** The newest queued mail of a kind to an address (the outbox keeps what was rendered). */
  const queued = async (to: string, kind: string) => {
    const rows = await t.app.store.db.selectFrom("mail_outbox").selectAll().where("to_address", "=", to).where("kind", "=", kind).execute();
    const m = rows.at(-1)!;
    return { subject: m.subject, text: m.text_body, html: m.html_body ?? "", headers: JSON.parse(m.headers ?? "{}") as Record<string, string> };
  };

  it("a person who signed up by passwordless in German gets their next code mail in German, asked from an English browser", async () => {
    const email = `lena-${backend.name}@example.com`;
    // Started from a German page: the first mail already follows the page's language (its cookie).
    const before = await lastMailId(t.app);
    const start = await pwPost(t, "/signinup/code", { email, shouldTryLinkingWithSessionUser: false }, { cookie: "authsvc-lang=de", "accept-language": "en" });
    expect(start.json.status).toBe("OK");
    const first = await readSignInMail(t, email, before);
    expect(first.mail.subject).toBe("Dein Anmeldecode");
    const consumed = await pwPost(t, "/signinup/code/consume", { preAuthSessionId: start.json.preAuthSessionId, deviceId: start.json.deviceId, userInputCode: first.code }, { cookie: "authsvc-lang=de" });
    expect(consumed.json).toMatchObject({ status: "OK", createdNewRecipeUser: true });

    // Later, from a browser that says nothing of German: the stored locale decides.
    const again = await lastMailId(t.app);
    const next = await pwPost(t, "/signinup/code", { email, shouldTryLinkingWithSessionUser: false }, { "accept-language": "en-US,en;q=0.9" });
    expect(next.json.status).toBe("OK");
    const mail = await readSignInMail(t, email, again);
    const m = await row(mail.id);
    expect(m.subject).toBe("Dein Anmeldecode");
    expect(m.text).toContain(`dein Code für die Anmeldung als ${email} lautet:`);
    expect(m.text).toContain(mail.code);
    expect(m.text).toMatch(/Code und Link sind 10 Minuten lang gültig \(bis \d+\. \w+ \d{4} um \d\d:\d\d UTC\)/);
    expect(m.html).toContain('<html lang="de" dir="ltr">');
    expect(m.html).toContain("Oder kopiere diesen Link in deinen Browser:");
    expect(m.headers).toContain('["content-language","de"]');
    // And it still signs in.
    expect((await pwPost(t, "/signinup/code/consume", { preAuthSessionId: next.json.preAuthSessionId, linkCode: mail.linkCode })).json).toMatchObject({ status: "OK", createdNewRecipeUser: false });

    // Someone with no stored language and an English browser: English.
    const other = `sam-${backend.name}@example.com`;
    const mark = await lastMailId(t.app);
    await pwPost(t, "/signinup/code", { email: other, shouldTryLinkingWithSessionUser: false }, { "accept-language": "en" });
    expect((await readSignInMail(t, other, mark)).mail.subject).toBe("Your sign-in code");
  });

  it("a person who signed up with a password in Korean gets the second factor's removal notice in Korean", async () => {
    const email = `minji-${backend.name}@example.com`;
    const res = await postJson(`${t.url}/auth/signup`, { formFields: [{ id: "email", value: email }, { id: "password", value: "correct horse battery staple" }] }, { "st-auth-mode": "header", "accept-language": "ko-KR,ko;q=0.9" });
    const tokens = readTokens(res, "header") as Tokens;
    const dev = await postWithSession(t.url, "/totp/device", tokens, {});
    expect((await postWithSession(t.url, "/totp/device/verify", tokens, { deviceName: dev.json.deviceName, totp: generateCode(dev.json.secret, t.clock.now()) })).json.status).toBe("OK");
    expect((await admin(t, "DELETE", `/users/${jwtPayload(tokens.access).sub as string}/mfa`)).status).toBe(200);
    const m = await queued(email, "mfa_reset");
    expect(m.subject).toBe("2단계 인증이 해제되었습니다");
    expect(m.text).toContain(`관리자가 ${email} 계정의 2단계 인증(인증 앱과 복구 코드)을 해제했습니다.`);
    expect(m.html).toContain('<html lang="ko" dir="ltr">');
    expect(m.html).toContain("2단계 인증 설정");
    expect(m.headers["Content-Language"]).toBe("ko");
  });

  it("a person who signed up with a passkey in Arabic gets the recovery mail in Arabic, right to left", async () => {
    const email = `salma-${backend.name}@example.com`;
    const call = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await postJson(`${t.url}/auth${path}`, body, { rid: "webauthn", ...headers });
      await t.app.ctx.deferred.drain();
      return (await res.json()) as Record<string, any>;
    };
    const options = await call("/webauthn/options/register", { email });
    const credential = new SoftwareAuthenticator("http://localhost:3000").register(options as never);
    expect((await call("/webauthn/signup", { webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId, credential }, { "accept-language": "ar-EG,ar;q=0.9" })).status).toBe("OK");
    // Asked for from a browser in French: her stored language wins.
    expect(await call("/user/webauthn/reset/token", { email }, { "accept-language": "fr" })).toEqual({ status: "OK" });
    const m = await queued(email, "webauthn_recovery");
    expect(m.subject).toBe("أنشئ مفتاح مرور جديدًا");
    expect(m.text).toContain(`طلب أحدهم (نأمل أن تكون أنت) استرداد الحساب ${email} الذي يسجّل الدخول بمفتاح مرور.`);
    expect(m.text).toContain("تظل مفاتيح المرور الأخرى تعمل.");
    expect(m.html).toContain('<html lang="ar" dir="rtl">');
    expect(m.headers["Content-Language"]).toBe("ar");
  });
});
