import { describe, expect, it } from "vitest";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { createPasswordlessUser } from "../../src/methods/passwordless/consume.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { expectAccessible, fill, openTab, usePagesSuite, waitForText, waitVisible } from "./harness.js";

/**
 * Account-linking refusals on the hosted pages (docs/account-linking.md): the API answers with
 * supertokens-node's fixed reasons ("… (ERR_CODE_007)", which the SDKs' prebuilt UI shows); the
 * pages say what to do in their own words and offer the button or link that does it.
 */
describe("account-linking refusals on the hosted pages (Chromium)", () => {
  const suite = usePagesSuite({ accountLinking: true, passwordlessFlowType: "code" });

  it("a password sign-up for an address that signs in with a code says so, and its button mails a sign-in code", async () => {
    const owner = await createPasswordlessUser(suite.s.app.ctx, { email: "cora@example.com", source: "test" });
    expect(owner.status).toBe("OK");
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await page.goto(`${suite.s.url}/auth?show=signup`);
    await waitVisible(page, "#form");
    await fill(page, "#email", "cora@example.com");
    await fill(page, "#password", "a long enough password");
    await page.click("#submit");
    await waitForText(page, "#form-error", /^This address already has an account\. Sign in to it instead/);
    expect(await page.$eval("main", (m) => m.textContent)).not.toMatch(/ERR_CODE_|security reasons/);
    expect(await page.$eval("#form-error-action a", (a) => a.getAttribute("href"))).toBe("/auth/reset-password");
    await expectAccessible(page, "sign-up refused by account linking");
    await Promise.all([page.waitForNavigation(), page.click("#form-error-action button")]);
    expect(new URL(page.url()).pathname).toBe("/auth/sign-in-code");
    await waitForCaughtMail(suite.s.app, "cora@example.com");
    expect(page.problems).toEqual([]);
  });

  it("a right password on an unverified login whose address another account has: verify first, with the button that sends the mail", async () => {
    await createPasswordlessUser(suite.s.app.ctx, { email: "dane@example.com", source: "test" });
    // Left by a release without linking: a separate, unverified password login for the address.
    const ctx = suite.s.app.ctx;
    const legacy = await signUpWithPassword({ ...ctx, config: { ...ctx.config, accountLinking: false } }, { email: "dane@example.com", password: "dane's old password" });
    expect(legacy.status).toBe("OK");
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await page.goto(`${suite.s.url}/auth`);
    await waitVisible(page, "#form");
    await fill(page, "#email", "dane@example.com");
    await fill(page, "#password", "dane's old password");
    await page.click("#submit");
    await waitForText(page, "#form-error", /^Verify your address first/);
    expect(await page.$eval("main", (m) => m.textContent)).not.toMatch(/ERR_CODE_|security reasons/);
    await page.click("#form-error-action button");
    await waitForText(page, "#form-error-action [role=status]", /We sent the link to dane@example\.com/);
    const mail = await waitForCaughtMail(suite.s.app, "dane@example.com", { action: "reset-password" });
    expect(mail.link).toContain("/auth/reset-password");
    // A new attempt clears the old message and its button.
    await page.click("#submit");
    await waitForText(page, "#form-error", /^Verify your address first/);
    expect(await page.$$eval("#form-error-action", (e) => e.length)).toBe(1);
    expect(page.problems).toEqual([]);
  });
});
