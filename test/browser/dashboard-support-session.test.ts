import type { Page } from "puppeteer-core";
import { beforeAll, describe, expect, it } from "vitest";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { markEmailVerified } from "../../src/store/users.js";
import { createTestAdmin, signInToDashboard, type TestAdmin } from "../helpers/dashboard.js";
import { expectAccessible, fill, openTab, usePagesSuite, waitVisible } from "./harness.js";

/**
 * The dashboard's support session in Chromium, with axe: from the person page an admin types a
 * reason and their own code, the browser lands signed in as the person (its account page lists
 * the support session by the admin, and refuses a password change in it), the person page lists
 * it live, and the admin ends it.
 */

const PW = "correct horse battery staple";

describe("the admin dashboard's support session (Chromium)", () => {
  const suite = usePagesSuite();
  let admin: TestAdmin;
  let id = "";
  beforeAll(async () => {
    admin = await createTestAdmin(suite.s.app, { email: "support@example.com" });
    const up = await signUpWithPassword(suite.s.app.ctx, { email: "cleo@example.com", password: PW });
    if (up.status !== "OK") throw new Error(up.status);
    id = up.user.id;
    await markEmailVerified(suite.s.app.store.db, id, "cleo@example.com", Date.now());
  });
  const flash = (page: Page) => page.$eval(".flash", (el) => el.textContent ?? "");

  it("starts from the person page with a reason and the admin's code, signs the browser in as the person, and ends", async () => {
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await signInToDashboard(page, suite.s.url, admin);
    await page.goto(`${suite.s.url}/admin/users/${id}`);
    expect(await page.$eval("#support-h", (h) => h.textContent)).toBe("Support session");
    await expectAccessible(page, "person page with the support-session form");

    // A wrong code: refused, said on the page, nothing opened.
    await fill(page, "#support-reason", "Cannot find the invoice page");
    await fill(page, "#support-code", "000000");
    await Promise.all([page.waitForNavigation(), page.click('form[action$="/support/start"] button')]);
    expect(await flash(page)).toMatch(/No support session: that authenticator code is wrong/);
    await expectAccessible(page, "person page after a refused support session");

    // The reason and the admin's code, by keyboard: the browser goes through the one-time link to the website.
    await fill(page, "#support-reason", "Cannot find the invoice page");
    await fill(page, "#support-code", admin.code());
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Start a support session as cleo@example.com");
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    expect(new URL(page.url()).pathname).toBe("/");

    // Signed in as the person: the account page lists the support session by the admin, and refuses a password change in it.
    await page.goto(`${suite.s.url}/auth/account`);
    await waitVisible(page, "#view-account");
    await page.waitForFunction(() => /Support session by support@example.com/.test(document.getElementById("sessions")?.textContent ?? ""));
    await expectAccessible(page, "account page in a support session");
    const refused = await page.evaluate(async () => {
      const res = await fetch("/auth/account/password", { method: "POST", headers: { rid: "session", "content-type": "application/json" }, body: JSON.stringify({ currentPassword: "x", newPassword: "a long new passphrase" }) });
      return { status: res.status, body: await res.json() };
    });
    expect(refused).toMatchObject({ status: 403, body: { status: "SUPPORT_SESSION_REFUSED" } });

    // The person page lists it live with the admin and the reason; the admin ends it.
    await page.goto(`${suite.s.url}/admin/users/${id}`);
    const panel = await page.$eval("#support-h", (h) => h.closest("section")!.textContent ?? "");
    expect(panel).toContain("support@example.com");
    expect(panel).toContain("Cannot find the invoice page");
    expect(await page.$eval("#sessions-h", (h) => h.closest("section")!.textContent ?? "")).toContain("support session by support@example.com");
    await expectAccessible(page, "person page with a live support session");
    await Promise.all([page.waitForNavigation(), page.click('form[action$="/support/end"] button')]);
    expect(await flash(page)).toBe("The support session ended.");
    const after = await page.evaluate(async () => (await fetch("/auth/session/refresh", { method: "POST", headers: { rid: "session" } })).status);
    expect(after).toBe(401);
    // The one console error: the browser logs the refused password change's 403 (asked above on purpose).
    expect(page.problems).toEqual(["console: Failed to load resource: the server responded with a status of 403 (Forbidden)"]);
  });
});
