import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "puppeteer-core";
import { createTestAdmin, signInToDashboard, type TestAdmin } from "../helpers/dashboard.js";
import { resetAdminSecondFactor } from "../../src/dashboard/accounts/admins.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { createManualClock } from "../../src/util/clock.js";
import { expectAccessible, expectNoHorizontalScroll, fill, launchBrowser, openTab, screenshot, startPagesServer, waitForText, type PagesServer } from "./harness.js";

describe("admin dashboard sign-in (Chromium)", () => {
  let s: PagesServer;
  let browser: Browser;
  let admin: TestAdmin;
  beforeAll(async () => {
    s = await startPagesServer({}, { clock: createManualClock(Date.now()) });
    browser = await launchBrowser();
    admin = await createTestAdmin(s.app, { email: "root@example.com" });
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it("signs in with password and code, lands on the overview, signs out; the page passes axe", async () => {
    const page = await openTab(browser, s.url);
    await page.goto(`${s.url}/admin/users?q=x`);
    // No session: the sign-in page, coming back to where the admin was going.
    expect(new URL(page.url()).pathname).toBe("/admin/sign-in");
    expect(await page.$eval("input[name=next]", (i) => (i as HTMLInputElement).value)).toBe("/admin/users?q=x");
    await expectAccessible(page, "dashboard sign-in page");
    await screenshot(page, "admin-sign-in");
    await signInToDashboard(page, s.url, admin);
    await expectAccessible(page, "dashboard overview (placeholder)");
    expect(await page.$eval("header .who", (e) => e.textContent)).toContain("root@example.com");
    await Promise.all([page.waitForNavigation(), page.click("header .who button")]);
    expect(new URL(page.url()).pathname).toBe("/admin/sign-in");
    await waitForText(page, "main", /You are signed out/);
    await page.goto(`${s.url}/admin`);
    expect(new URL(page.url()).pathname).toBe("/admin/sign-in");
    expect(page.problems).toEqual([]);
  });

  it("refusals are shown clearly: a wrong code, an app user's session, an admin without a second factor", async () => {
    const page = await openTab(browser, s.url);
    await page.goto(`${s.url}/admin/sign-in`);
    await fill(page, "#email", admin.email);
    await fill(page, "#password", admin.password);
    await fill(page, "#code", "000000");
    await Promise.all([page.waitForNavigation(), page.click("form.sign-in button[type=submit]")]);
    await waitForText(page, "[role=alert]", /Wrong email, password or code/);
    expect(await page.$eval("#email", (i) => (i as HTMLInputElement).value)).toBe(admin.email);
    await expectAccessible(page, "dashboard sign-in page with an error");

    // An app user signed in on the hosted pages is nobody here.
    await signUpWithPassword(s.app.ctx, { email: "user@example.com", password: "an app user password", verified: true });
    await page.goto(`${s.url}/auth`);
    await fill(page, "#email", "user@example.com");
    await fill(page, "#password", "an app user password");
    await Promise.all([page.waitForNavigation(), page.click("#submit")]);
    await page.goto(`${s.url}/admin`);
    expect(new URL(page.url()).pathname).toBe("/admin/sign-in");

    const lost = await createTestAdmin(s.app, { email: "lost@example.com" });
    await resetAdminSecondFactor(s.app.ctx, { email: lost.email, remove: true, source: "cli" });
    await fill(page, "#email", lost.email);
    await fill(page, "#password", lost.password);
    await fill(page, "#code", lost.code());
    await Promise.all([page.waitForNavigation(), page.click("form.sign-in button[type=submit]")]);
    await waitForText(page, "[role=alert]", /no second factor/);
    expect(new URL(page.url()).pathname).toBe("/admin/sign-in");
  });

  it("signs in with the keyboard alone, and fits a 360 px screen", async () => {
    const page = await openTab(browser, s.url, { width: 360, height: 740 });
    await page.goto(`${s.url}/admin/sign-in`);
    await expectNoHorizontalScroll(page, "dashboard sign-in page at 360 px");
    // Tab from the top: skip link, then the three fields in order, then the button.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.className)).toBe("skip");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("email");
    await page.keyboard.type(admin.email);
    await page.keyboard.press("Tab");
    await page.keyboard.type(admin.password);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("code");
    await page.keyboard.type(admin.code());
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    expect(new URL(page.url()).pathname).toBe("/admin");
    await expectNoHorizontalScroll(page, "dashboard overview at 360 px");
    await page.goto(`${s.url}/admin/account`);
    await expectNoHorizontalScroll(page, "your admin account at 360 px");
    await expectAccessible(page, "your admin account");
    expect(page.problems).toEqual([]);
  });
});
