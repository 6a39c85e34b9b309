import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "puppeteer-core";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { expectAccessible, fill, launchBrowser, openTab, startPagesServer, waitForText, waitVisible, type PagesServer } from "./harness.js";

describe("password reset and keyboard-only sign-in on the hosted pages (Chromium)", () => {
  let s: PagesServer;
  let browser: Browser;
  beforeAll(async () => {
    s = await startPagesServer({ pagesRedirectPaths: ["/", "/_dev/*"] });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it("resets a password through the pages: ask for the link, choose a new password (server policy shown at the field), then sign in with it", async () => {
    await signUpWithPassword(s.app.ctx, { email: "grace@example.com", password: "the old password 1", verified: true });
    const page = await openTab(browser, s.url);
    await page.goto(`${s.url}/auth`);
    await waitVisible(page, "#form");
    await page.click("a[href='/auth/reset-password']");
    await waitVisible(page, "#view-request");
    await expectAccessible(page, "reset-password page (ask for a link)");
    await fill(page, "#email", "grace@example.com");
    await page.click("#request-form button[type=submit]");
    await waitVisible(page, "#view-sent");

    const mail = await waitForCaughtMail(s.app, "grace@example.com", { action: "reset-password" });
    expect(mail.link).toMatch(new RegExp(`^${s.url}/auth/reset-password\\?token=`));
    await page.goto(mail.link!);
    await waitVisible(page, "#view-new");
    expect(page.url()).toBe(`${s.url}/auth/reset-password`);
    await expectAccessible(page, "reset-password page (new password)");

    // The two fields differ: said next to the second one.
    await fill(page, "#password", "a brand new password 2");
    await fill(page, "#confirm", "something else");
    await page.click("#new-form button[type=submit]");
    await waitForText(page, "#confirm-error", /not the same/);
    // Too short for the server's policy: its message, next to the field, which gets the focus.
    await fill(page, "#password", "short");
    await fill(page, "#confirm", "short");
    await page.click("#new-form button[type=submit]");
    await waitForText(page, "#password-error", /8/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("password");

    await fill(page, "#password", "a brand new password 2");
    await fill(page, "#confirm", "a brand new password 2");
    await page.click("#new-form button[type=submit]");
    await waitVisible(page, "#view-changed");
    await expectAccessible(page, "reset-password page (changed)");

    await Promise.all([page.waitForNavigation(), page.click("#view-changed a")]);
    await fill(page, "#email", "grace@example.com");
    await fill(page, "#password", "a brand new password 2");
    await Promise.all([page.waitForNavigation(), page.click("#submit")]);
    expect(page.url()).toBe(`${s.url}/`);

    // The link again: used, said plainly, with a way to ask for a new one.
    await page.goto(mail.link!);
    await fill(page, "#password", "yet another password 3");
    await fill(page, "#confirm", "yet another password 3");
    await page.click("#new-form button[type=submit]");
    await waitVisible(page, "#view-invalid");
    expect(await page.$eval("#view-invalid a", (a) => a.getAttribute("href"))).toBe("/auth/reset-password");
    expect(page.problems).toEqual([]);
  });

  it("signs in with the keyboard alone: errors are announced and focused, Enter submits, and only an allowed redirectToPath is followed", async () => {
    await signUpWithPassword(s.app.ctx, { email: "kbd@example.com", password: "keyboard only 123", verified: true });
    // A fresh profile: signed in already, the sign-in page would resume that session instead.
    const page = await openTab(await browser.createBrowserContext(), s.url);
    await page.goto(`${s.url}/auth?redirectToPath=${encodeURIComponent("/_dev/mail")}`);
    await waitVisible(page, "#form");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    for (let i = 0; i < 8 && (await page.evaluate(() => document.activeElement?.id)) !== "email"; i++) await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("email");
    await page.keyboard.type("kbd@example.com");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("password");
    await page.keyboard.type("not my password");
    await page.keyboard.press("Enter");
    await waitForText(page, "#form-error", /not correct/);
    expect(await page.$eval("#form-error", (e) => e.getAttribute("role"))).toBe("alert");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("password");

    await page.keyboard.down("Control");
    await page.keyboard.press("KeyA");
    await page.keyboard.up("Control");
    await page.keyboard.type("keyboard only 123");
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    expect(page.url()).toBe(`${s.url}/_dev/mail`);
    expect((await page.cookies()).map((c) => c.name)).toContain("sAccessToken");

    // A redirect outside the allow-list (another site) is ignored: the default path instead.
    const other = await openTab(await browser.createBrowserContext(), s.url);
    await other.goto(`${s.url}/auth?redirectToPath=${encodeURIComponent("//evil.example/x")}`);
    await waitVisible(other, "#form");
    await fill(other, "#email", "kbd@example.com");
    await fill(other, "#password", "keyboard only 123");
    await Promise.all([other.waitForNavigation(), other.click("#submit")]);
    expect(other.url()).toBe(`${s.url}/`);
    // Signed in already, the sign-in page resumes the session, again only to an allowed path.
    await other.goto(`${s.url}/auth?redirectToPath=${encodeURIComponent("//evil.example/x")}`);
    await other.waitForFunction((u) => location.href === u, { timeout: 15_000 }, `${s.url}/`);
    expect(other.problems).toEqual([]);
    expect(page.problems).toEqual([]);
  });

  it("a 429 from the API (rate limits) is shown as a readable sentence with the wait, in the alert region", async () => {
    // The rate limiter is another piece of work; here the browser answers for it, as it will answer.
    const page = await openTab(await browser.createBrowserContext(), s.url);
    await page.setRequestInterception(true);
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url() === `${s.url}/auth/signin`) void r.respond({ status: 429, headers: { "retry-after": "30" }, contentType: "application/json", body: JSON.stringify({ message: "Too many requests" }) });
      else void r.continue();
    });
    await page.goto(`${s.url}/auth`);
    await waitVisible(page, "#form");
    await fill(page, "#email", "kbd@example.com");
    await fill(page, "#password", "keyboard only 123");
    await page.click("#submit");
    await waitForText(page, "#form-error", /^Too many attempts\. Please wait 30 seconds and try again\.$/);
    expect(await page.$eval("#submit", (b) => (b as HTMLButtonElement).disabled)).toBe(false);
  });
});
