import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "puppeteer-core";
import { requestEmailVerification } from "../../src/core/email-verification.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { expectAccessible, expectNoHorizontalScroll, fill, launchBrowser, openTab, screenshot, startPagesServer, waitForText, waitVisible, type PagesServer } from "./harness.js";

describe("sign up on the hosted page, verify through the development inbox (Chromium)", () => {
  let s: PagesServer;
  let browser: Browser;
  beforeAll(async () => {
    s = await startPagesServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it("the mail appears in the open inbox without a reload, its link verifies, and the inbox then shows the token as used", async () => {
    const inbox = await openTab(browser, s.url, { width: 1280, height: 1200 });
    await inbox.goto(`${s.url}/_dev/mail`);
    await waitVisible(inbox, "#empty");
    await expectAccessible(inbox, "empty inbox");

    const page = await openTab(browser, s.url, { width: 800, height: 760 });
    await page.goto(`${s.url}/auth?show=signup`);
    await waitForText(page, "#form-title", /Sign up/);
    await waitVisible(page, "#form");
    await expectAccessible(page, "sign-up page");
    await page.goto(`${s.url}/auth`);
    await waitForText(page, "#form-title", /Sign in/);
    await waitVisible(page, "#form");
    await expectAccessible(page, "sign-in page");
    await screenshot(page, "sign-in");

    // A password outside the policy: the server's message next to the field.
    await page.click("#switch");
    await waitForText(page, "#form-title", /Sign up/);
    await fill(page, "#email", "ada@example.com");
    await fill(page, "#password", "short");
    await page.click("#submit");
    await waitForText(page, "#password-error", /\S/);
    expect(await page.$eval("#password", (e) => e.getAttribute("aria-invalid"))).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("password");

    await fill(page, "#password", "correct horse battery staple");
    await page.click("#submit");
    await waitVisible(page, "#view-check-mail");
    await waitForText(page, "#check-mail-address", /ada@example\.com/);

    // The inbox tab, never reloaded, shows the mail as it arrives.
    await inbox.bringToFront();
    await waitForText(inbox, "#list", /ada@example\.com/);
    await inbox.click("#list li:first-child button");
    await waitForText(inbox, "#d-state", /^valid$/);
    await waitForText(inbox, "#d-action", /Verify email/);
    const link = await inbox.$eval("#d-link", (a) => (a as HTMLAnchorElement).href);
    expect(link).toMatch(new RegExp(`^${s.url}/auth/verify-email\\?token=`));
    const token = await inbox.$eval("#d-token", (e) => e.textContent);
    expect(link).toContain(token!);
    // The mail's HTML, in its sandboxed frame (its own CSP; no script may run there).
    const frame = await inbox.waitForFrame((f) => f.url().endsWith("/_dev/mail/messages/1/html"));
    await frame.waitForSelector("a[href*='verify-email']");
    expect(await inbox.$eval("#d-html", (f) => f.getAttribute("sandbox"))).toBe("");
    await expectAccessible(inbox, "inbox with an open message");
    await screenshot(inbox, "inbox", { ignore: [".mail-list .meta", "#d-received", "#d-token", "#d-expires", "#d-text", "#d-html"] }); // times, tokens, ports of this run

    // Opened in the signed-in tab: verified by the page's POST, and the token is gone from the address bar.
    await page.bringToFront();
    await page.goto(link);
    await waitVisible(page, "#view-done");
    expect(page.url()).not.toContain("token");
    expect(await page.evaluate(() => history.length > 0 && location.search)).toBe("");
    await expectAccessible(page, "verify-email page (verified)");

    await inbox.bringToFront();
    await waitForText(inbox, "#d-state", /^used$/);

    // Opened again: the link no longer works, said plainly.
    await page.bringToFront();
    await page.goto(link);
    await waitVisible(page, "#view-invalid");
    await waitForText(page, "#invalid-title", /already verified/);
    await expectAccessible(page, "verify-email page (used link)");

    // The inbox's own controls: copy the token, filter, delete everything.
    await inbox.bringToFront();
    await inbox.click("#d-copy");
    await waitForText(inbox, "#status", /^Token (copied|selected)/);
    await fill(inbox, "#filter-to", "nobody@example.com");
    await waitVisible(inbox, "#empty");
    await fill(inbox, "#filter-to", "ada@");
    await inbox.select("#filter-action", "verify-email");
    await waitForText(inbox, "#count", /^\(1\)$/);
    inbox.once("dialog", (d) => void d.accept());
    await inbox.click("#delete-all");
    await waitForText(inbox, "#status", /Deleted 1 message/);
    await waitVisible(inbox, "#empty");

    expect(page.problems).toEqual([]);
    expect(inbox.problems).toEqual([]);
  });

  it("the pages do not scroll sideways on a 360 px wide phone", async () => {
    // A fresh profile: signed in, the sign-in page would resume the session and leave.
    const page = await openTab(await browser.createBrowserContext(), s.url, { width: 360, height: 740 });
    for (const path of ["/auth", "/auth?show=signup", "/auth/reset-password", "/auth/verify-email", "/_dev/mail", "/"]) {
      await page.goto(`${s.url}${path}`);
      await page.waitForNetworkIdle({ idleTime: 200, timeout: 10_000 }).catch(() => {});
      await expectNoHorizontalScroll(page, path);
      if (path === "/auth") await screenshot(page, "sign-in-phone");
    }
    await page.goto(`${s.url}/`);
    await expectAccessible(page, "development home page");
    expect(page.problems).toEqual([]);
  });

  it("a link opened where nobody is signed in asks to sign in, then finishes the verification", async () => {
    const r = await signUpWithPassword(s.app.ctx, { email: "other-device@example.com", password: "another device 123" });
    if (r.status !== "OK") throw new Error(r.status);
    await requestEmailVerification(s.app.ctx, r.user.id);
    const mail = await waitForCaughtMail(s.app, "other-device@example.com", { action: "verify-email" });
    const page = await openTab(await browser.createBrowserContext(), s.url);
    await page.goto(mail.link!);
    await waitVisible(page, "#view-sign-in");
    expect(page.url()).toBe(`${s.url}/auth/verify-email`);
    await expectAccessible(page, "verify-email page (sign in to finish)");
    await fill(page, "#email", "other-device@example.com");
    await fill(page, "#password", "another device 123");
    await page.click("#sign-in-form button[type=submit]");
    await waitVisible(page, "#view-done");
    expect(page.problems).toEqual([]);
  });
});
