import { describe, expect, it } from "vitest";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { expectAccessible, fill, openTab, usePagesSuite, waitForText, waitVisible } from "./harness.js";

/**
 * Who is signed in, as a person sees it after a hosted sign-in: the page the sign-in lands on by
 * default (the development home) names them and links to the account pages, and "My account"
 * says whose account it is.
 */
describe("who is signed in on the hosted pages (Chromium)", () => {
  const suite = usePagesSuite();
  const PASSWORD = "who is signed in 123";

  it("a sign-in lands on a page that names the person and links to account, second factor and passkeys; the account page names them too", async () => {
    await signUpWithPassword(suite.s.app.ctx, { email: "iris@example.com", password: PASSWORD, verified: true });
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await page.goto(`${suite.s.url}/`);
    await waitVisible(page, "#signed-out");
    expect(await page.$eval("#signed-in", (e) => getComputedStyle(e).display)).toBe("none");

    await page.goto(`${suite.s.url}/auth`);
    await waitVisible(page, "#form");
    await fill(page, "#email", "iris@example.com");
    await fill(page, "#password", PASSWORD);
    await Promise.all([page.waitForNavigation(), page.click("#submit")]);
    expect(new URL(page.url()).pathname).toBe("/");
    await waitForText(page, "#signed-in", /Signed in as iris@example\.com/);
    const links = await page.$$eval("#signed-in a", (all) => all.map((a) => [a.textContent, a.getAttribute("href")]));
    const base = `${suite.s.url}/auth`;
    // The account page's own list of the rooms' pages (Room.accountPage), then sign-out.
    expect(links).toEqual([
      ["My account", `${base}/account`], ["My organizations", `${base}/my-organizations`], ["Second factor (authenticator app)", `${base}/second-factor`],
      ["Passkeys", `${base}/passkeys`], ["Connected apps", `${base}/connected-apps`], ["Sign out", `${base}/sign-out`],
    ]);
    expect(await page.$eval("#signed-out", (e) => getComputedStyle(e).display)).toBe("none");

    await Promise.all([page.waitForNavigation(), page.click("#signed-in a[href$='/account']")]);
    await waitVisible(page, "#view-account");
    await waitForText(page, "#account-who", /^Signed in as iris@example\.com$/);
    // Deleting the account is the page's one irreversible act, and looks like it: not an ordinary blue button.
    const del = await page.$eval("#delete", (b) => getComputedStyle(b).backgroundColor);
    const submit = await page.$eval("#password-form button[type=submit]", (b) => getComputedStyle(b).backgroundColor);
    expect(del).toBe("rgb(179, 38, 30)");
    expect(del).not.toBe(submit);
    await expectAccessible(page, "my account, named");
    expect(page.problems).toEqual([]);
  });

  it("in development, 'Check your email' links to the development inbox", async () => {
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await page.goto(`${suite.s.url}/auth?show=signup`);
    await waitVisible(page, "#form");
    await fill(page, "#email", "jude@example.com");
    await fill(page, "#password", PASSWORD);
    await page.click("#submit");
    await waitVisible(page, "#view-check-mail");
    expect(await page.$eval("#view-check-mail .dev-inbox-hint a", (a) => a.getAttribute("href"))).toBe("/_dev/mail");
    expect(page.problems).toEqual([]);
  });
});
