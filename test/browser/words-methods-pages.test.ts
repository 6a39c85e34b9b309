import { describe, expect, it } from "vitest";
import type { Page } from "puppeteer-core";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { wordsIn } from "../helpers/words.js";
import { expectAccessible, expectNoHorizontalScroll, fill, openTab, screenshot, usePagesSuite, waitForText, waitVisible } from "./harness.js";

/**
 * Issue 48 in Chromium for the passwordless, second-factor and passkey pages: in German, Japanese
 * and Arabic on a 360 px phone, each page is written in the chosen language (its markup and what
 * its script says), axe finds nothing serious, nothing scrolls sideways, and Arabic reads right to
 * left. Screenshots for docs/pages.md.
 */
describe("the passwordless, second-factor and passkey pages in German, Japanese and Arabic (Chromium, 360 px)", () => {
  const suite = usePagesSuite({ pagesRedirectPaths: ["/auth/second-factor", "/"] });
  const PASSWORD = "correct horse battery staple";
  const langs = [["de", "ltr"], ["ja", "ltr"], ["ar", "rtl"]] as const;

  const text = (page: Page, sel: string) => page.$eval(sel, (e) => e.textContent?.trim() ?? "");
  const check = async (page: Page, lang: string, dir: string, what: string) => {
    expect(await page.$eval("html", (e) => [e.lang, e.dir])).toEqual([lang, dir]);
    await expectAccessible(page, `${what} (${lang})`);
    await expectNoHorizontalScroll(page, `${what} (${lang})`);
  };

  it.each(langs)("%s", async (lang, dir) => {
    const w = wordsIn(lang);
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url, { width: 360, height: 740 });

    // Passwordless: the sign-in page's button, then the code page; the script's words (which way
    // to sign in, a wrong code's message with the tries left) come from the page, in its language.
    await page.goto(`${suite.s.url}/auth?lang=${lang}`);
    await waitVisible(page, "#passwordless-start");
    expect(await text(page, "#passwordless-start")).toBe(w.t("code.js.emailCode"));
    await fill(page, "#email", `code-${lang}@example.com`);
    await page.click("#passwordless-start");
    await page.waitForFunction(() => location.pathname === "/auth/sign-in-code", { timeout: 15_000 });
    await waitVisible(page, "#code-form");
    expect(await text(page, "#code-title")).toBe(w.t("checkMail.title"));
    expect([w.t("code.js.typeOrOpen"), w.t("code.js.typeCode")]).toContain(await text(page, "#code-text"));
    await fill(page, "#code", "000000");
    await page.click("#code-form button[type=submit]");
    await waitForText(page, "#code-error", /\S/);
    expect(await text(page, "#code-error")).toContain(w.t("code.js.wrong"));
    await check(page, lang, dir, "sign-in code");
    await screenshot(page, `sign-in-code-${lang}`, { ignore: ["#code-address"] });
    // The mailed link's page, opened without its code: the invalid-link view.
    await page.goto(`${suite.s.url}/auth/verify`);
    await waitVisible(page, "#view-invalid");
    expect(await text(page, "#invalid-title")).toBe(w.t("page.invalid.title"));
    await check(page, lang, dir, "sign-in link");

    // The second factor: signed in with a password, the manage page, then setting up an app.
    const email = `mfa-${lang}@example.com`;
    await signUpWithPassword(suite.s.app.ctx, { email, password: PASSWORD, verified: true });
    await page.goto(`${suite.s.url}/auth?redirectToPath=${encodeURIComponent("/auth/second-factor")}`);
    await waitVisible(page, "#form");
    await fill(page, "#email", email);
    await fill(page, "#password", PASSWORD);
    await page.click("#submit");
    await page.waitForFunction(() => location.pathname === "/auth/second-factor", { timeout: 15_000 });
    await waitForText(page, "#state", /\S/);
    expect(await text(page, "#state")).toBe(w.t("totp.js.off"));
    expect(await text(page, "#manage-title")).toBe(w.t("totp.manage.title"));
    await check(page, lang, dir, "second factor");
    await page.click("#add");
    await waitVisible(page, "#setup-form");
    expect(await text(page, "#setup-title")).toBe(w.t("totp.setup.title"));
    expect(await text(page, "label[for=setup-code]")).toBe(w.t("totp.setup.label"));
    await check(page, lang, dir, "second factor set-up");
    await screenshot(page, `mfa-setup-${lang}`, { ignore: ["#qr", "#secret"] });
    // An empty code: the field's own words.
    await page.click("#setup-form button[type=submit]");
    expect(await text(page, "#setup-code-error")).toBe(w.t("totp.code.empty"));

    // Passkeys: the list (none yet), and the recovery page.
    await page.goto(`${suite.s.url}/auth/passkeys`);
    await waitVisible(page, "#view-list");
    expect(await text(page, "#list-title")).toBe(w.t("passkey.list.title"));
    expect(await text(page, "#none")).toBe(w.t("passkey.list.none"));
    await check(page, lang, dir, "passkeys");
    await screenshot(page, `passkeys-${lang}`);
    await page.goto(`${suite.s.url}/auth/webauthn/recover`);
    await waitVisible(page, "#request-form");
    expect(await text(page, "#request-title")).toBe(w.t("passkey.lost"));
    await check(page, lang, dir, "passkey recovery");
    expect(page.problems).toEqual([]);
  });
});
