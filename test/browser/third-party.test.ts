import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "puppeteer-core";
import { closedPort, CONFIDENTIAL, startOidcProvider, type TestIdp } from "../helpers/oidc-provider.js";
import { expectAccessible, launchBrowser, openTab, startPagesServer, waitVisible, type PagesServer } from "./harness.js";

describe("third-party sign-in on the hosted page through a real OpenID provider (Chromium)", () => {
  let idp: TestIdp;
  let s: PagesServer;
  let browser: Browser;
  beforeAll(async () => {
    // The provider must know our callback page before we start, so our port is chosen first.
    const port = await closedPort();
    idp = await startOidcProvider({ redirectUris: [`http://127.0.0.1:${port}/auth/callback/oidc`] });
    s = await startPagesServer({
      port,
      providers: [{ thirdPartyId: "oidc", name: "Test OIDC", oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email"] }],
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await idp?.close();
  });

  it("the provider's button leads through its login and consent back to the callback page, which signs the user in and returns", async () => {
    idp.accounts.set("lin", { email: "lin@example.com", email_verified: true });
    const page = await openTab(browser, s.url);
    await page.goto(`${s.url}/auth`);
    const button = await page.waitForSelector("#providers button.provider");
    expect(await button!.evaluate((b) => b.textContent)).toBe("Continue with Test OIDC");
    await expectAccessible(page, "sign-in page with a provider");

    // The provider's login page (login and consent in one step, test/helpers/oidc-provider.ts).
    await Promise.all([page.waitForNavigation(), button!.click()]);
    expect(page.url().startsWith(idp.issuer)).toBe(true);
    await page.type("input[name=login]", "lin");
    await page.type("input[name=password]", "any-password");
    await Promise.all([page.waitForNavigation({ waitUntil: "networkidle0" }), page.click("button[type=submit]")]);

    // Back through /auth/callback/oidc to the default redirect path.
    await page.waitForFunction((u) => location.href === u, { timeout: 15_000 }, `${s.url}/`);
    expect((await page.cookies()).map((c) => c.name)).toContain("sAccessToken");
    const identity = await s.app.store.db.selectFrom("third_party_identities").selectAll().where("email", "=", "lin@example.com").executeTakeFirst();
    expect(identity?.provider_id).toBe("oidc");
    expect(page.problems).toEqual([]);
  });

  it("a provider that gives an unverified address: signed in, then asked to verify by mail", async () => {
    idp.accounts.set("mo", { email: "mo@example.com", email_verified: false });
    // A fresh profile: the provider must not remember the first test's login.
    const page = await openTab(await browser.createBrowserContext(), s.url);
    await page.goto(`${s.url}/auth`);
    const button = await page.waitForSelector("#providers button.provider");
    await Promise.all([page.waitForNavigation(), button!.click()]);
    await page.type("input[name=login]", "mo");
    await page.type("input[name=password]", "any-password");
    await Promise.all([page.waitForNavigation(), page.click("button[type=submit]")]);
    await waitVisible(page, "#view-check-mail");
    expect(page.url()).toBe(`${s.url}/auth/callback/oidc`);
    await expectAccessible(page, "callback page (check your email)");
  });
});
