import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "puppeteer-core";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { fill, launchBrowser, openTab, startPagesServer, waitVisible, type PagesServer } from "./harness.js";

// Issue 17 point 8, in the browser that follows the redirect: with every path allowed (/*), a target
// that the URL parser would turn into another host lands on the website's default path instead.
describe("redirect after sign-in on the hosted page (Chromium)", () => {
  let s: PagesServer;
  let browser: Browser;
  beforeAll(async () => {
    s = await startPagesServer({ pagesRedirectPaths: ["/", "/*"] });
    browser = await launchBrowser();
    await signUpWithPassword(s.app.ctx, { email: "redirect@example.com", password: "redirect me 123", verified: true });
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  // Each sign-in in a fresh context: the sign-in page resumes a live session without the form.
  const signInWith = async (redirectToPath: string) => {
    const page = await openTab(await browser.createBrowserContext(), s.url);
    await page.goto(`${s.url}/auth?redirectToPath=${encodeURIComponent(redirectToPath)}`);
    await waitVisible(page, "#form");
    await fill(page, "#email", "redirect@example.com");
    await fill(page, "#password", "redirect me 123");
    await Promise.all([page.waitForNavigation(), page.click("#submit")]);
    return page;
  };

  it("a TAB, CR, LF or backslash that would make the target another host sends the user to the default path", async () => {
    for (const target of ["/\t/evil.example/phish", "/\r/evil.example", "/\n/evil.example", "/\\evil.example", "//evil.example"]) {
      const page = await signInWith(target);
      expect(page.url(), JSON.stringify(target)).toBe(`${s.url}/`);
      expect(page.problems).toEqual([]);
      await page.browserContext().close();
    }
  });

  it("an allowed path on the site is still followed", async () => {
    const page = await signInWith("/_dev/mail");
    expect(page.url()).toBe(`${s.url}/_dev/mail`);
    await page.browserContext().close();
  });
});
