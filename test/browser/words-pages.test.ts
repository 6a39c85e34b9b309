import { describe, expect, it } from "vitest";
import { expectAccessible, expectNoHorizontalScroll, openTab, screenshot, usePagesSuite, waitVisible } from "./harness.js";

/**
 * Issue 48 in Chromium: the sign-in, sign-up, reset and verification pages in German, Japanese and
 * Arabic on a 360 px phone: axe finds nothing, nothing scrolls sideways, Arabic reads right to left,
 * and the scripts speak the page's language. Screenshots for docs/pages.md.
 */
describe("the hosted pages in German, Japanese and Arabic (Chromium, 360 px)", () => {
  const suite = usePagesSuite();
  const expected = {
    de: { dir: "ltr", signIn: "Anmelden", signUp: "Registrieren", reset: "Passwort zurücksetzen", verify: "Dieser Link ist unvollständig", empty: "Gib deine E-Mail-Adresse ein." },
    ja: { dir: "ltr", signIn: "サインイン", signUp: "新規登録", reset: "パスワードの再設定", verify: "このリンクは不完全です", empty: "メールアドレスを入力してください。" },
    ar: { dir: "rtl", signIn: "تسجيل الدخول", signUp: "إنشاء حساب", reset: "إعادة تعيين كلمة المرور", verify: "هذا الرابط غير مكتمل", empty: "أدخل عنوان بريدك الإلكتروني." },
  } as const;

  it.each(Object.keys(expected) as Array<keyof typeof expected>)("%s", async (lang) => {
    const want = expected[lang];
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url, { width: 360, height: 740 });
    const text = (sel: string) => page.$eval(sel, (e) => e.textContent?.trim());

    await page.goto(`${suite.s.url}/auth?lang=${lang}`);
    await waitVisible(page, "#form");
    expect(await page.$eval("html", (e) => [e.lang, e.dir])).toEqual([lang, want.dir]);
    expect(await text("#form-title")).toBe(want.signIn);
    // The script says it too (its words come from the page), e.g. an empty field's message.
    await page.click("#submit");
    expect(await text("#email-error")).toBe(want.empty);
    await expectAccessible(page, `sign-in (${lang})`);
    await expectNoHorizontalScroll(page, `sign-in (${lang})`);
    if (want.dir === "rtl") {
      // Right to left: the form's start is on the right.
      const { label, card } = await page.evaluate(() => ({ label: document.querySelector("label[for=email]")!.getBoundingClientRect().right, card: document.querySelector("main")!.getBoundingClientRect().right }));
      expect(card - label).toBeLessThan(40);
    }
    await screenshot(page, `sign-in-${lang}`);

    // The cookie keeps the choice: the switch to sign-up and the other pages follow it.
    await page.click("#switch");
    expect(await text("#form-title")).toBe(want.signUp);
    await expectAccessible(page, `sign-up (${lang})`);
    await page.goto(`${suite.s.url}/auth/reset-password`);
    await waitVisible(page, "#view-request");
    expect(await text("#request-title")).toBe(want.reset);
    await expectAccessible(page, `reset (${lang})`);
    await expectNoHorizontalScroll(page, `reset (${lang})`);
    await page.goto(`${suite.s.url}/auth/verify-email`);
    await waitVisible(page, "#view-invalid");
    expect(await text("#invalid-title")).toBe(want.verify);
    await expectAccessible(page, `verify (${lang})`);
    await expectNoHorizontalScroll(page, `verify (${lang})`);
    expect(page.problems).toEqual([]);
  });
});
