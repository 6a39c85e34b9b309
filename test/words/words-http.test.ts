import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { call, newPerson } from "../organizations/helpers.js";

const PASSWORD = "a long and unusual passphrase";

/** Signs up through the API as a browser would (its Accept-Language), in header mode; the access token. */
async function signUp(t: TestApp, email: string, headers: Record<string, string> = {}): Promise<{ id: string; access: string; refresh: string }> {
  const res = await fetch(`${t.url}/auth/signup`, { method: "POST", headers: { "content-type": "application/json", "st-auth-mode": "header", ...headers }, body: JSON.stringify({ formFields: [{ id: "email", value: email }, { id: "password", value: PASSWORD }] }) });
  const json = (await res.json()) as { status: string; user: { id: string } };
  expect(json.status).toBe("OK");
  return { id: json.user.id, access: res.headers.get("st-access-token")!, refresh: res.headers.get("st-refresh-token")! };
}

/** The newest caught mail to an address, as it arrived (headers, HTML). */
async function caught(t: TestApp, to: string, action: string) {
  const view = await waitForCaughtMail(t.app, to, { action });
  const row = await t.app.store.db.selectFrom("caught_mail").selectAll().where("id", "=", view.id).executeTakeFirstOrThrow();
  return { subject: view.subject, text: row.text_body ?? "", html: row.html_body ?? "", headers: (row.headers ?? "").toLowerCase(), link: view.link };
}

describe.each(backends)("words: pages and mails in the person's language ($name)", (backend) => {
  let t: TestApp;
  let words: string;
  beforeAll(async () => {
    // The operator's words: one sentence of the German sign-in page and one of the German verification mail.
    words = mkdtempSync(join(tmpdir(), "authsvc-words-"));
    writeFileSync(join(words, "de.json"), JSON.stringify({ "signIn.title": "Bei Acme anmelden", "mail.verify.subject": "Willkommen bei Acme: bitte bestätige deine Adresse" }));
    t = await createTestApp({ backend, start: true, config: { hostedPages: true, mailCatcher: true, mailCatcherPort: 0, rateLimits: false, wordsDir: words } });
  });
  afterAll(async () => { await t?.close(); });

  const page = (path: string, headers: Record<string, string> = {}) => fetch(`${t.url}/auth${path}`, { headers });

  it("writes the sign-in page in the browser's language, with <html lang dir> and Content-Language", async () => {
    const ja = await page("", { "accept-language": "ja-JP,ja;q=0.9,en;q=0.5" });
    const html = await ja.text();
    expect(html).toContain('<html lang="ja" dir="ltr">');
    expect(html).toContain("<h1 id=\"form-title\" tabindex=\"-1\">サインイン</h1>");
    expect(ja.headers.get("content-language")).toBe("ja");
    expect(ja.headers.get("vary")).toMatch(/Accept-Language/);
    const ar = await (await page("/reset-password", { "accept-language": "ar-EG" })).text();
    expect(ar).toContain('<html lang="ar" dir="rtl">');
    expect(ar).toContain("إعادة تعيين كلمة المرور");
    // No header, or one naming nothing offered: the default locale.
    expect(await (await page("", { "accept-language": "sw" })).text()).toContain('<html lang="en" dir="ltr">');
  });

  it("?lang= chooses the language on any page and a cookie keeps it; an unknown one is ignored", async () => {
    const fr = await page("/verify-email?lang=fr", { "accept-language": "de" });
    expect(await fr.text()).toContain("Confirmez votre adresse e-mail");
    const cookie = fr.headers.getSetCookie().find((c) => c.startsWith("authsvc-lang=fr"));
    expect(cookie).toMatch(/HttpOnly/i);
    const next = await page("/reset-password", { "accept-language": "de", cookie: "authsvc-lang=fr" });
    expect(await next.text()).toContain('<html lang="fr"');
    const unknown = await page("?lang=xx", { "accept-language": "es" });
    expect(await unknown.text()).toContain('<html lang="es"');
    expect(unknown.headers.getSetCookie()).toEqual([]);
  });

  it("gives the page scripts their words in the page, in its language", async () => {
    const html = await (await page("?lang=pl")).text();
    const block = /<script type="application\/json" id="page-words">(.*?)<\/script>/s.exec(html)![1];
    const parsed = JSON.parse(block) as { lang: string; words: Record<string, string> };
    expect(parsed.lang).toBe("pl");
    expect(parsed.words["js.wrongCredentials"]).toBe("Adres e-mail lub hasło są nieprawidłowe.");
    expect(parsed.words["password.js.signingIn"]).toBe("Logowanie…");
    // Only the scripts' words travel: not the page's own sentences, nor the mails'.
    expect(Object.keys(parsed.words).every((id) => /(^|\.)js\./.test(id))).toBe(true);
  });

  it("a person who signed up in German gets the verification, reset and invitation mails in German", async () => {
    const hanna = await signUp(t, "hanna@example.com", { "accept-language": "de-DE,de;q=0.9,en;q=0.8" });
    await fetch(`${t.url}/auth/user/email/verify/token`, { method: "POST", headers: { authorization: `Bearer ${hanna.access}` } });
    const verify = await caught(t, "hanna@example.com", "verify-email");
    // The operator's override of the German subject, and the shipped German body.
    expect(verify.subject).toBe("Willkommen bei Acme: bitte bestätige deine Adresse");
    expect(verify.text).toContain("bitte bestätige, dass hanna@example.com deine E-Mail-Adresse ist");
    expect(verify.text).toMatch(/Der Link ist 1 Tag lang gültig \(bis \d+\. \w+ \d{4} um \d\d:\d\d UTC\)/);
    expect(verify.html).toContain('<html lang="de" dir="ltr">');
    expect(verify.headers).toContain('["content-language","de"]');

    // Asked from a browser in English: the mail still follows her stored locale.
    await fetch(`${t.url}/auth/user/password/reset/token`, { method: "POST", headers: { "content-type": "application/json", "accept-language": "en" }, body: JSON.stringify({ formFields: [{ id: "email", value: "hanna@example.com" }] }) });
    const reset = await caught(t, "hanna@example.com", "reset-password");
    expect(reset.subject).toBe("Setze dein Passwort zurück");
    expect(reset.html).toContain("Neues Passwort wählen");
    expect(reset.headers).toContain('["content-language","de"]');

    // Invited to an organization by someone who reads English.
    const ana = await newPerson(t, "ada@example.com");
    const org = await call(t, "POST", "/organizations", ana, { name: "Acme" });
    await call(t, "POST", `/organizations/${org.json.organization.id}/invitations`, ana, { email: "hanna@example.com", role: "admin" });
    const invite = await caught(t, "hanna@example.com", "organization-invitation");
    expect(invite.subject).toBe("Deine Einladung zu Acme (admin)");
    expect(invite.html).toContain("Einladung annehmen");
    expect(invite.headers).toContain('["content-language","de"]');
  });

  it("a person who signed up in German gets the account's mails in German: the new address's confirmation, the old one's notice, the deletion's grace", async () => {
    const greta = await signUp(t, "greta@example.com", { "accept-language": "de-AT,de;q=0.9" });
    const post = (path: string, body: unknown) => fetch(`${t.url}/auth/account${path}`, { method: "POST", headers: { authorization: `Bearer ${greta.access}`, "content-type": "application/json", "accept-language": "en" }, body: JSON.stringify(body) });
    expect(await (await post("/email", { email: "greta.neu@example.com", password: PASSWORD })).json()).toMatchObject({ status: "OK" });
    // The new address has no account yet: its confirmation is written in the requester's language.
    const change = await caught(t, "greta.neu@example.com", "change-email");
    expect(change.subject).toBe("Bestätige deine neue E-Mail-Adresse");
    expect(change.text).toContain("jemand (hoffentlich du) möchte greta.neu@example.com als Adresse seines Kontos verwenden.");
    expect(change.html).toContain('<html lang="de" dir="ltr">');
    expect(change.html).toContain("Neue Adresse bestätigen");
    expect(change.headers).toContain('["content-language","de"]');
    const token = new URL(change.link!).searchParams.get("token");
    expect(await (await post("/email/confirm", { token })).json()).toMatchObject({ status: "OK", email: "greta.neu@example.com" });
    const changed = await caught(t, "greta@example.com", "email-changed");
    expect(changed.subject).toBe("Deine E-Mail-Adresse wurde geändert");
    expect(changed.html).toContain("Mein Passwort zurücksetzen");
    expect(changed.headers).toContain('["content-language","de"]');
    expect(await (await post("/delete", { password: PASSWORD })).json()).toMatchObject({ status: "OK", deleted: false });
    const deletion = await caught(t, "greta.neu@example.com", "account-deletion");
    expect(deletion.subject).toBe("Dein Konto wird gelöscht");
    expect(deletion.text).toMatch(/das Konto greta\.neu@example\.com wurde überall abgemeldet und wird am \d+\. \w+ \d{4} um \d\d:\d\d UTC endgültig gelöscht\./);
    expect(deletion.html).toContain("Mein Konto behalten");
    expect(deletion.headers).toContain('["content-language","de"]');
  });

  it("a person changes the language of their mail on \"My account\"; a locale not offered is refused and changes nothing", async () => {
    const tom = await signUp(t, "tom@example.com", { "accept-language": "de" });
    const post = (locale: unknown) => fetch(`${t.url}/auth/account/locale`, { method: "POST", headers: { authorization: `Bearer ${tom.access}`, "content-type": "application/json" }, body: JSON.stringify({ locale }) });
    const bad = await post("tlh");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toMatch(/json/);
    expect(((await bad.json()) as { message: string }).message).toMatch(/locale must be one of en, de/);
    const me = async () => ((await (await fetch(`${t.url}/auth/account/me`, { headers: { authorization: `Bearer ${tom.access}` } })).json()) as { user: { locale: string } }).user.locale;
    expect(await me()).toBe("de");
    // The page offers the choice in each language's own name, in the page's language.
    const account = await (await page("/account?lang=de")).text();
    expect(account).toContain("<h2>Sprache deiner Mails</h2>");
    expect(account).toContain('<option value="ja" lang="ja">日本語</option>');
    expect(account).toContain('<option value="ar" lang="ar">العربية</option>');
    expect(await (await post("ja")).json()).toEqual({ status: "OK", locale: "ja" });
    expect(await me()).toBe("ja");
    await fetch(`${t.url}/auth/user/password/reset/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ formFields: [{ id: "email", value: "tom@example.com" }] }) });
    const reset = await caught(t, "tom@example.com", "reset-password");
    expect(reset.subject).toBe("パスワードの再設定");
    expect(reset.html).toContain('<html lang="ja" dir="ltr">');
  });

  it("the operator's override shows on the page; the other locales keep the shipped words", async () => {
    expect(await (await page("?lang=de")).text()).toContain("<h1 id=\"form-title\" tabindex=\"-1\">Bei Acme anmelden</h1>");
    expect(await (await page("?lang=nl")).text()).toContain("<h1 id=\"form-title\" tabindex=\"-1\">Inloggen</h1>");
  });

  it("someone who signed up with no language the server offers reads mail in the default locale", async () => {
    const sam = await signUp(t, "sam@example.com", { "accept-language": "sw" });
    await fetch(`${t.url}/auth/user/email/verify/token`, { method: "POST", headers: { authorization: `Bearer ${sam.access}` } });
    const mail = await caught(t, "sam@example.com", "verify-email");
    expect(mail.subject).toBe("Verify your email address");
    expect(mail.headers).toContain('["content-language","en"]');
    expect(await t.app.store.db.selectFrom("person_locales").select("locale").where("user_id", "=", sam.id).executeTakeFirst()).toBeUndefined();
  });
});

describe("words: the operator's overrides are checked at start", () => {
  const dirWith = (file: string, content: string) => {
    const dir = mkdtempSync(join(tmpdir(), "authsvc-words-"));
    writeFileSync(join(dir, file), content);
    return dir;
  };
  it("refuses an unknown id, a message that does not parse, a locale not shipped", async () => {
    await expect(createTestApp({ config: { wordsDir: dirWith("de.json", '{"no.such.word":"x"}') }, listen: false })).rejects.toThrow(/no word no\.such\.word/);
    await expect(createTestApp({ config: { wordsDir: dirWith("de.json", '{"signIn.title":"{unclosed"}') }, listen: false })).rejects.toThrow(/de\.json: signIn\.title/);
    await expect(createTestApp({ config: { wordsDir: dirWith("tlh.json", "{}") }, listen: false })).rejects.toThrow(/tlh is not a shipped locale/);
  });
});
