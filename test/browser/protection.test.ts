import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "puppeteer-core";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { expectAccessible, fill, launchBrowser, openTab, screenshot, startPagesServer, waitForText, waitVisible, type PagesServer } from "./harness.js";

describe("sign up through the bot check on the hosted page (Chromium, --captcha pow)", () => {
  let s: PagesServer;
  let browser: Browser;
  beforeAll(async () => {
    s = await startPagesServer({ captcha: "pow", captchaRequired: "always", captchaDifficulty: 2000 });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it("solves the proof of work in the form (widget, worker and styles from this origin, under the CSP) and signs up", async () => {
    const page = await openTab(browser, s.url, { width: 800, height: 900 });
    const foreign: string[] = [];
    page.on("request", (r) => { if (!r.url().startsWith(s.url) && !r.url().startsWith("data:")) foreign.push(r.url()); });
    await page.goto(`${s.url}/auth?show=signup`);
    await waitForText(page, "#form-title", /Sign up/);
    await waitVisible(page, "#form");
    await fill(page, "#email", "human@example.com");
    // Starting on the form starts the work: the widget appears above the submit button.
    await waitVisible(page, "#form altcha-widget");
    await waitForText(page, "#form .captcha", /verified/i, 30_000);
    await expectAccessible(page, "sign-up form with the bot check");
    await screenshot(page, "sign-up-captcha", { ignore: [] }).catch(() => undefined);
    await fill(page, "#password", "correct horse battery staple");
    await page.click("#submit");
    await waitVisible(page, "#view-check-mail");
    const users = await s.app.store.db.selectFrom("users").select("email").execute();
    expect(users.map((u) => u.email)).toEqual(["human@example.com"]);
    expect(foreign).toEqual([]);
    expect(page.problems).toEqual([]);
  });

  it("a second sign-up from the same page solves a new challenge (a solution is used once)", async () => {
    const page = await openTab(browser, s.url, { width: 800, height: 900 });
    await page.goto(`${s.url}/auth?show=signup`);
    await waitVisible(page, "#form");
    await fill(page, "#email", "taken@example.com");
    await fill(page, "#password", "short");
    await page.click("#submit");
    await waitForText(page, "#password-error", /\S/);
    await fill(page, "#password", "correct horse battery staple");
    await page.click("#submit");
    await waitVisible(page, "#view-check-mail");
    const users = await s.app.store.db.selectFrom("users").select("email").execute();
    expect(users.map((u) => u.email).sort()).toEqual(["human@example.com", "taken@example.com"]);
    expect(page.problems).toEqual([]);
  });
});

describe("a sign-in with a breached password on the hosted pages (Chromium, --breached-passwords-at-sign-in)", () => {
  let s: PagesServer;
  let browser: Browser;
  beforeAll(async () => {
    s = await startPagesServer({ breachedPasswordsAtSignIn: true, breachedPasswords: "offline" });
    browser = await launchBrowser();
    // A password from before the check (kept from an old system), in the shipped list of breached passwords.
    const up = await signUpWithPassword(s.app.ctx, { email: "old@example.com", password: "password123", verified: true, movedIn: { top: new Map() } });
    if (up.status !== "OK") throw new Error(up.status);
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it("signs in, lands on My account with the notice, and the notice goes once the password is changed", async () => {
    const page = await openTab(browser, s.url, { width: 800, height: 1000 });
    await page.goto(`${s.url}/auth`);
    await waitVisible(page, "#form");
    await fill(page, "#email", "old@example.com");
    await fill(page, "#password", "password123");
    await page.click("#submit");
    await page.waitForFunction(() => location.pathname === "/auth/account", { timeout: 15_000 });
    await waitVisible(page, "#breached-notice");
    await expectAccessible(page, "My account with the breached-password notice");
    await fill(page, "#current-password", "password123");
    await fill(page, "#new-password", "a fresh and unbreached passphrase");
    await page.click("#password-form button[type=submit]");
    await waitForText(page, "#password-status", /changed/);
    await page.waitForFunction(() => (document.getElementById("breached-notice") as HTMLElement).hidden, { timeout: 15_000 });
    expect(page.problems).toEqual([]);
  });
});
