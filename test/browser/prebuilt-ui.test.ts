import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "puppeteer-core";
import { waitForCaughtMail } from "../helpers/mail.js";
import { closedPort, CONFIDENTIAL, startOidcProvider, type TestIdp } from "../helpers/oidc-provider.js";
import { bundleFrontend, EXAMPLES, startApi, startFrontend, TOKEN_MODES, type ApiServer, type FrontendServer } from "./frontend-app.js";
import { launchBrowser, openTab } from "./harness.js";
import { clickUi, fillUi, waitForUiText } from "./prebuilt-ui-driver.js";

/**
 * The real supertokens-auth-react prebuilt UI (examples/frontend/prebuilt-ui.tsx, the app the
 * frontend docs show) against authsvc in Chromium, in both token transfer methods. Cookie mode
 * runs the app on the API's site (127.0.0.1, another port); header mode on another site
 * (localhost), where only header mode works without HTTPS.
 */
const PASSWORD = "correct horse battery staple";
const NEW_PASSWORD = "a fresh and long passphrase";

describe.each(TOKEN_MODES)("the supertokens-auth-react prebuilt UI in $method mode (Chromium)", ({ method, host }) => {
  let idp: TestIdp;
  let api: ApiServer;
  let web: FrontendServer;
  let browser: Browser;
  let page: Page & { problems: string[] };
  const calls: Array<{ method: string; path: string; status: number; auth: boolean }> = [];
  const email = `ada-${method}@example.com`;

  beforeAll(async () => {
    const bundle = await bundleFrontend(EXAMPLES.prebuiltUi);
    // The provider must know the app's callback page before it starts, so the app's port comes first.
    const port = await closedPort();
    const website = `http://${host}:${port}`;
    idp = await startOidcProvider({ redirectUris: [`${website}/auth/callback/oidc`] });
    api = await startApi(website, {
      providers: [{ thirdPartyId: "oidc", name: "Test OIDC", oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email"] }],
    });
    web = await startFrontend(bundle, { apiDomain: api.url, websiteDomain: website, tokenTransferMethod: method }, { port, host });
    browser = await launchBrowser();
    page = await openTab(browser, web.url);
    page.on("response", (r) => {
      if (!r.url().startsWith(api.url) || r.request().method() === "OPTIONS") return;
      calls.push({ method: r.request().method(), path: new URL(r.url()).pathname, status: r.status(), auth: /^Bearer /.test(r.request().headers().authorization ?? "") });
    });
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await api?.close();
    await idp?.close();
  });

  /** The signed-in home page of the example app shows the user id. */
  async function expectSignedInAs(tab: Page, userEmail: string): Promise<string> {
    await tab.waitForSelector("#user-id", { timeout: 15_000 });
    const id = await tab.$eval("#user-id", (e) => e.textContent);
    const user = await api.app.store.db.selectFrom("users").select("id").where("email", "=", userEmail).executeTakeFirstOrThrow();
    expect(id).toBe(user.id);
    return id!;
  }

  it("signs up (the server's password rule shown in the form), verifies through the mailed link, and lands signed in", async () => {
    await page.goto(`${web.url}/auth?show=signup`);
    await fillUi(page, "email", email);
    await fillUi(page, "password", "password123");
    await clickUi(page, /^sign up$/);
    // authsvc's own policy message (a password found in breaches: the shipped list in development),
    // not the SDK's rule: the example defers to the server.
    await waitForUiText(page, /appeared in a data breach/i);
    expect(await api.app.store.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst()).toBeUndefined();

    await fillUi(page, "password", PASSWORD);
    await clickUi(page, /^sign up$/);
    await waitForUiText(page, /Verify your email/i);
    expect(page.url()).toBe(`${web.url}/auth/verify-email`);
    const mail = await waitForCaughtMail(api.app, email, { action: "verify-email" });
    expect(mail.link).toMatch(new RegExp(`^${web.url}/auth/verify-email\\?token=`));

    await page.goto(mail.link!);
    await waitForUiText(page, /Email verification successful/i);
    await clickUi(page, /^continue$/);
    await expectSignedInAs(page, email);
    // Where the tokens live, as the frontend docs' table says.
    const apiCookies = await page.cookies(api.url);
    const appCookies = (await page.cookies(web.url)).map((c) => c.name);
    if (method === "cookie") {
      expect(apiCookies.find((c) => c.name === "sAccessToken")?.httpOnly).toBe(true);
      expect(appCookies).not.toContain("st-access-token");
      expect(calls.filter((c) => c.path === "/auth/user/email/verify").every((c) => !c.auth)).toBe(true);
    } else {
      // No session cookie of the API; the SDK keeps the tokens in the app's cookies and sends a Bearer header.
      expect(apiCookies.map((c) => c.name)).not.toContain("sAccessToken");
      expect(appCookies).toEqual(expect.arrayContaining(["st-access-token", "st-refresh-token"]));
      expect(calls.filter((c) => c.path === "/auth/user/email/verify").some((c) => c.auth)).toBe(true);
    }
    expect(page.problems).toEqual([]);
  });

  it("refreshes the session when the access token has expired, without the user noticing", async () => {
    const before = calls.length;
    // 16 minutes later for the server: its access token (15 minutes) is expired, the refresh token is not.
    api.clock.advance(16 * 60_000);
    // A request of the app through the SDK (it wraps fetch for the API's domain).
    const status = await page.evaluate(async (u) => (await fetch(`${u}/auth/user/email/verify`)).status, api.url);
    expect(status).toBe(200);
    const after = calls.slice(before);
    expect(after.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([
      "GET /auth/user/email/verify 401",
      "POST /auth/session/refresh 200",
      "GET /auth/user/email/verify 200",
    ]);
    await page.reload();
    await expectSignedInAs(page, email);
    expect(page.problems).toEqual([]);
  });

  it("signs out and signs in again with the password", async () => {
    await clickUi(page, /^sign out$/);
    await waitForUiText(page, /Sign In/);
    expect(new URL(page.url()).pathname).toMatch(/^\/auth\/?$/);
    await fillUi(page, "email", email);
    await fillUi(page, "password", "not the password");
    await clickUi(page, /^sign in$/);
    await waitForUiText(page, /Incorrect email and password combination/i);
    await fillUi(page, "password", PASSWORD);
    await clickUi(page, /^sign in$/);
    await expectSignedInAs(page, email);
  });

  it("resets a forgotten password through the mailed link; the old one stops working", async () => {
    await clickUi(page, /^sign out$/);
    await waitForUiText(page, /Sign In/);
    await clickUi(page, /^forgot password\?$/);
    await fillUi(page, "email", email);
    await clickUi(page, /^email me$/);
    await waitForUiText(page, /A password reset email has been sent to/i);
    const mail = await waitForCaughtMail(api.app, email, { action: "reset-password" });
    expect(mail.link).toMatch(new RegExp(`^${web.url}/auth/reset-password\\?token=`));

    await page.goto(mail.link!);
    await fillUi(page, "password", NEW_PASSWORD);
    await fillUi(page, "confirm-password", NEW_PASSWORD);
    await clickUi(page, /^change password$/);
    await waitForUiText(page, /Success!\s+Your password has been updated/i);
    // The same link a second time: refused, said plainly.
    await page.goto(mail.link!);
    await fillUi(page, "password", NEW_PASSWORD);
    await fillUi(page, "confirm-password", NEW_PASSWORD);
    await clickUi(page, /^change password$/);
    await waitForUiText(page, /Invalid password reset token/i);

    await page.goto(`${web.url}/auth`);
    await fillUi(page, "email", email);
    await fillUi(page, "password", PASSWORD);
    await clickUi(page, /^sign in$/);
    await waitForUiText(page, /Incorrect email and password combination/i);
    await fillUi(page, "password", NEW_PASSWORD);
    await clickUi(page, /^sign in$/);
    await expectSignedInAs(page, email);
    expect(page.problems).toEqual([]);
  });

  it("signs in with the OpenID provider's button and comes back signed in", async () => {
    // A fresh profile: nobody signed in, no provider session.
    const tab = await openTab(await browser.createBrowserContext(), web.url);
    await tab.goto(`${web.url}/auth`);
    idp.accounts.set("lin", { email: `lin-${method}@example.com`, email_verified: true });
    await Promise.all([tab.waitForNavigation(), clickUi(tab, /^continue with my oidc provider$/)]);
    expect(tab.url().startsWith(idp.issuer)).toBe(true);
    await tab.type("input[name=login]", "lin");
    await tab.type("input[name=password]", "any-password");
    await Promise.all([tab.waitForNavigation(), tab.click("button[type=submit]")]);
    // Through the app's /auth/callback/oidc (the SDK posts the code to /auth/signinup) to its home page.
    await expectSignedInAs(tab, `lin-${method}@example.com`);
    const identity = await api.app.store.db.selectFrom("third_party_identities").selectAll().where("email", "=", `lin-${method}@example.com`).executeTakeFirst();
    expect(identity?.provider_id).toBe("oidc");
    expect(tab.problems).toEqual([]);
  });

  it("said nothing worse than 401 to the SDK along the way", () => {
    expect(calls.filter((c) => c.status >= 400 && c.status !== 401)).toEqual([]);
  });
});
