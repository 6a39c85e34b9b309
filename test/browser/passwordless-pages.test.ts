import { afterEach, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "puppeteer-core";
import { waitForCaughtMail } from "../helpers/mail.js";
import { lastMailId } from "../helpers/passwordless.js";
import { expectAccessible, fill, openTab, usePagesSuite, waitForText, waitVisible } from "./harness.js";

/**
 * The hosted pages' passwordless flows in Chromium: "email me a sign-in code" on the sign-in page,
 * the code page (wrong code, then the right one), the link in the same browser, and the link in a
 * fresh browser, which asks for a click before it signs anyone in.
 */
describe("passwordless sign-in on the hosted pages (Chromium)", () => {
  const suite = usePagesSuite();

  /** Asks for a code on the sign-in page and returns the mail. */
  async function requestCode(page: Page, email: string) {
    const afterId = await lastMailId(suite.s.app);
    await page.goto(`${suite.s.url}/auth`);
    await waitVisible(page, "#passwordless-start");
    await fill(page, "#email", email);
    await page.click("#passwordless-start");
    await page.waitForFunction(() => location.pathname === "/auth/sign-in-code", { timeout: 15_000 });
    await waitForText(page, "#code-address", new RegExp(email.replace(/\./g, "\\.")));
    return waitForCaughtMail(suite.s.app, email, { action: "passwordless", afterId });
  }

  const signedIn = async (page: Page) => {
    await page.waitForFunction(() => location.pathname === "/", { timeout: 15_000 });
    const cookies = await page.cookies(suite.s.url);
    expect(cookies.map((c) => c.name)).toContain("sAccessToken");
  };

  /** A tab in a browser context of its own (no session from an earlier test). */
  const contexts: BrowserContext[] = [];
  afterEach(async () => { for (const c of contexts.splice(0)) await c.close(); });
  const newTab = async () => {
    const c = await suite.browser.createBrowserContext();
    contexts.push(c);
    return openTab(c, suite.s.url);
  };

  const personOf = (email: string) => suite.s.app.store.db.selectFrom("passwordless_users").select("user_id").where("email", "=", email).executeTakeFirst();

  it("signs up with the mailed code typed on the code page, after a wrong one", async () => {
    const page = await newTab();
    const email = "hosted-code@example.com";
    const mail = await requestCode(page, email);
    await expectAccessible(page, "code page");
    const wrong = mail.code === "000000" ? "000001" : "000000";
    await fill(page, "#code", wrong);
    await page.click("#code-form button[type=submit]");
    await waitForText(page, "#code-error", /not right\. 4 tries left/);
    await fill(page, "#code", mail.code!);
    await page.click("#code-form button[type=submit]");
    await signedIn(page);
    expect(await personOf(email)).toBeDefined();
    expect(page.problems).toEqual([]);
  });

  it("signs in with the mailed link in the same browser, without a click", async () => {
    const page = await newTab();
    const mail = await requestCode(page, "hosted-code@example.com");
    expect(mail.link).toMatch(new RegExp(`^${suite.s.url}/auth/verify\\?preAuthSessionId=[^#]+&tenantId=public#[A-Za-z0-9_-]{43}$`));
    await page.goto(mail.link!);
    await signedIn(page);
    expect(page.problems).toEqual([]);
  });

  it("asks for a click before signing in when the link is opened in a fresh browser", async () => {
    const page = await newTab();
    const email = "hosted-elsewhere@example.com";
    const mail = await requestCode(page, email);
    // A scanner fetching the link gets the page and nothing else: the link code is in the fragment.
    expect((await fetch(mail.link!)).status).toBe(200);
    const other = await newTab();
    await other.goto(mail.link!);
    await waitVisible(other, "#view-confirm");
    await expectAccessible(other, "link page asking for a click");
    expect(new URL(other.url()).hash).toBe("");
    expect(await personOf(email)).toBeUndefined();
    await other.click("#continue");
    await signedIn(other);
    expect(await personOf(email)).toBeDefined();
    expect(other.problems).toEqual([]);
    // The first browser's flow ended with that sign-in: its code no longer works.
    await fill(page, "#code", mail.code!);
    await page.click("#code-form button[type=submit]");
    await waitVisible(page, "#view-restart");
  });
});
