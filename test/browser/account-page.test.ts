import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "puppeteer-core";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { getUser } from "../../src/core/users.js";
import { deleteDueAccounts } from "../../src/account/deletion.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { expectAccessible, fill, openTab, usePagesSuite, waitForText, waitVisible } from "./harness.js";

/** The hosted "My account" page (src/account/page.ts) in Chromium, every flow through its forms. */
describe("the hosted account page (Chromium)", () => {
  const suite = usePagesSuite();
  let id = "";
  beforeAll(async () => {
    const up = await signUpWithPassword(suite.s.app.ctx, { email: "acct@example.com", password: "account page pass 1", verified: true });
    if (up.status !== "OK") throw new Error(up.status);
    id = up.user.id;
  });

  async function signIn(page: Page, email: string, password: string): Promise<void> {
    await page.goto(`${suite.s.url}/auth`);
    await waitVisible(page, "#form");
    await fill(page, "#email", email);
    await fill(page, "#password", password);
    await page.click("#submit");
    await page.waitForFunction(() => !location.pathname.startsWith("/auth"), { timeout: 15_000 });
  }

  it("asks a signed-out visitor to sign in; shows my sessions and signs the others out", async () => {
    const other = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await signIn(other, "acct@example.com", "account page pass 1");
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await page.goto(`${suite.s.url}/auth/account`);
    await waitVisible(page, "#view-signed-out");
    await signIn(page, "acct@example.com", "account page pass 1");
    await page.goto(`${suite.s.url}/auth/account`);
    await waitVisible(page, "#view-account");
    await page.waitForFunction(() => document.querySelectorAll("#sessions li").length === 2);
    expect(await page.$eval("#sessions", (el) => el.textContent)).toMatch(/this device/);
    expect(await page.$$eval("#account-links a", (as) => as.map((a) => a.getAttribute("href")))).toContain("/auth/sign-out");
    await expectAccessible(page, "account page");
    await page.click("#revoke-others");
    await waitForText(page, "#sessions-status", /Signed out 1 session/);
    await page.waitForFunction(() => document.querySelectorAll("#sessions li").length === 1);
    const otherAfter = await other.evaluate(async () => (await fetch("/auth/session/refresh", { method: "POST", headers: { rid: "session" } })).status);
    expect(otherAfter).toBe(401);
    expect(page.problems).toEqual([]);
  });

  it("changes the password, then the email (confirmed from the mailed link), then deletes the account and keeps it from the grace mail", async () => {
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await signIn(page, "acct@example.com", "account page pass 1");
    await page.goto(`${suite.s.url}/auth/account`);
    await waitVisible(page, "#view-account");

    await fill(page, "#current-password", "account page pass 1");
    await fill(page, "#new-password", "account page pass 2");
    await page.click("#password-form button[type=submit]");
    await waitForText(page, "#password-status", /Your password was changed/);
    await waitForCaughtMail(suite.s.app, "acct@example.com", { action: "password-changed" });

    await fill(page, "#new-email", "acct@new.example");
    await fill(page, "#email-password", "account page pass 2");
    await page.click("#email-form button[type=submit]");
    await waitForText(page, "#email-status", /We sent a link to acct@new\.example/);
    const confirm = await waitForCaughtMail(suite.s.app, "acct@new.example", { action: "change-email" });
    await page.goto(confirm.link!);
    await waitForText(page, "#token-done-text", /now acct@new\.example/);
    expect(page.url()).not.toMatch(/token=/);
    await waitForCaughtMail(suite.s.app, "acct@example.com", { action: "email-changed" });
    expect((await getUser(suite.s.app.ctx, id))?.email).toBe("acct@new.example");

    await page.goto(`${suite.s.url}/auth/account`);
    await waitVisible(page, "#view-account");
    await fill(page, "#delete-password", "account page pass 2");
    await page.click("#delete");
    await waitVisible(page, "#view-deleted");
    const grace = await waitForCaughtMail(suite.s.app, "acct@new.example", { action: "account-deletion" });
    await page.goto(grace.link!);
    await waitForText(page, "#token-done-text", /Your account is kept/);
    expect(await deleteDueAccounts(suite.s.app.ctx)).toBe(0);
    expect(await getUser(suite.s.app.ctx, id)).toBeDefined();
    expect(page.problems).toEqual([]);
  });
});
