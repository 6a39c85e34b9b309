import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "puppeteer-core";
import { createApp } from "../../src/app.js";
import { testConfig } from "../../src/config.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { viewCaughtMail } from "../../src/mail/caught-mail-view.js";
import { mail as mailTable } from "../../src/rooms.js";
import { listCaughtMail } from "../../src/store/caught-mail.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { closedPort, CONFIDENTIAL, startOidcProvider, type TestIdp } from "../helpers/oidc-provider.js";
import { bundleFrontend, EXAMPLES, startApi, startFrontend, type ApiServer, type FrontendServer } from "./frontend-app.js";
import { launchBrowser, openTab } from "./harness.js";
import { clickUi, fillUi, readUiText, waitForUiText } from "./prebuilt-ui-driver.js";

/**
 * Account linking (issue 19, docs/account-linking.md) as a person meets it in the real
 * supertokens-auth-react prebuilt UI (examples/frontend/prebuilt-ui.tsx) in Chromium: the refusals
 * show the SDK's text, and "reset password" adds a password to a Google (third-party) user. One
 * token transfer method is enough here (prebuilt-ui.test.ts covers both): linking is the server's.
 */

/**
 * The reasons as the SDK shows them. Its translations (emailpasswordprebuiltui.js, the
 * "messages from our backend SDK" block) map these keys to `undefined`, which means "show the
 * server's reason verbatim".
 */
const SHOWN = {
  signUpRefused: "Cannot sign up due to security reasons. Please try logging in, use a different login method or contact support. (ERR_CODE_007)",
  signInRefused: "Cannot sign in due to security reasons. Please try resetting your password, use a different login method or contact support. (ERR_CODE_008)",
};
const PASSWORD = "correct horse battery staple";

/** A pattern that matches `text` literally. */
function literally(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
}

describe("account linking in the supertokens-auth-react prebuilt UI (Chromium)", () => {
  let idp: TestIdp;
  let api: ApiServer;
  let web: FrontendServer;
  let browser: Browser;
  const errors: number[] = [];

  beforeAll(async () => {
    const bundle = await bundleFrontend(EXAMPLES.prebuiltUi);
    const port = await closedPort();
    const website = `http://127.0.0.1:${port}`;
    idp = await startOidcProvider({ redirectUris: [`${website}/auth/callback/oidc`] });
    api = await startApi(website, {
      providers: [{ thirdPartyId: "oidc", name: "Test OIDC", oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email"] }],
    });
    web = await startFrontend(bundle, { apiDomain: api.url, websiteDomain: website, tokenTransferMethod: "cookie" }, { port, host: "127.0.0.1" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await api?.close();
    await idp?.close();
  });

  /** A tab in a fresh browser profile (nobody signed in), recording the API's 5xx answers. */
  async function openFreshTab(): Promise<Page & { problems: string[] }> {
    const tab = await openTab(await browser.createBrowserContext(), web.url);
    tab.on("response", (r) => {
      if (r.url().startsWith(api.url) && r.status() >= 500) errors.push(r.status());
    });
    return tab;
  }

  /** The user id the example app's home page shows (the SDK's Session userId, the token's `sub`). */
  async function readShownUserId(tab: Page): Promise<string> {
    await tab.waitForSelector("#user-id", { timeout: 15_000 });
    return (await tab.$eval("#user-id", (e) => e.textContent))!;
  }

  function loginMethodsOf(email: string) {
    return api.app.store.db.selectFrom("users").select(["id", "primary_user_id"]).where("email", "=", email).execute();
  }

  /** Signs in through the provider's button and its login page, as `account` with that address. */
  async function signInWithProvider(tab: Page, account: string, email: string): Promise<string> {
    idp.accounts.set(account, { email, email_verified: true });
    await tab.goto(`${web.url}/auth`);
    await Promise.all([tab.waitForNavigation(), clickUi(tab, /^continue with my oidc provider$/)]);
    await tab.type("input[name=login]", account);
    await tab.type("input[name=password]", "any-password");
    await Promise.all([tab.waitForNavigation(), tab.click("button[type=submit]")]);
    return readShownUserId(tab);
  }

  it("a password sign-up for a Google user's address shows the refusal; reset password then adds a password to that same user", async () => {
    const email = "grace@example.com";
    const google = await openFreshTab();
    const googleUserId = await signInWithProvider(google, "grace", email);

    // Someone (Grace herself, forgetting) tries a password sign-up in another browser.
    const tab = await openFreshTab();
    await tab.goto(`${web.url}/auth?show=signup`);
    await fillUi(tab, "email", email);
    await fillUi(tab, "password", PASSWORD);
    await clickUi(tab, /^sign up$/);
    await waitForUiText(tab, literally(SHOWN.signUpRefused));
    expect(tab.url()).toBe(`${web.url}/auth?show=signup`); // still on the form, not signed in
    expect(await loginMethodsOf(email)).toHaveLength(1);

    // "Forgot password?" mails a reset link although she has no password yet.
    await tab.goto(`${web.url}/auth`);
    await clickUi(tab, /^forgot password\?$/);
    await fillUi(tab, "email", email);
    await clickUi(tab, /^email me$/);
    await waitForUiText(tab, /A password reset email has been sent to/i);
    const mail = await waitForCaughtMail(api.app, email, { action: "reset-password" });
    await tab.goto(mail.link!);
    await fillUi(tab, "password", PASSWORD);
    await fillUi(tab, "confirm-password", PASSWORD);
    await clickUi(tab, /^change password$/);
    await waitForUiText(tab, /Success!\s+Your password has been updated/i);
    // The owner learns that a password now opens her account.
    await waitForCaughtMail(api.app, email, { action: "password-changed" });
    // The refused sign-up mailed nothing (no verification link for an account that was not made).
    const mails = (await listCaughtMail(api.app.store.db, { to: email })).map((m) => viewCaughtMail(mailTable, m).action);
    expect(mails.sort()).toEqual(["password-changed", "reset-password"]);

    // Signing in with the new password: the same person as the Google sign-in, no verify-email screen.
    await tab.goto(`${web.url}/auth`);
    await fillUi(tab, "email", email);
    await fillUi(tab, "password", PASSWORD);
    await clickUi(tab, /^sign in$/);
    expect(await readShownUserId(tab)).toBe(googleUserId);
    const methods = await loginMethodsOf(email);
    expect(methods).toHaveLength(2);
    expect(methods.every((m) => (m.primary_user_id ?? m.id) === googleUserId)).toBe(true);

    // And Google still signs her in as that user.
    expect(await signInWithProvider(await openFreshTab(), "grace", email)).toBe(googleUserId);
    expect([...google.problems, ...tab.problems]).toEqual([]);
  });

  it("a password sign-in whose unverified address belongs to a Google user shows the refusal (after the right password only)", async () => {
    const email = "erin@example.com";
    await signInWithProvider(await openFreshTab(), "erin", email);
    // A separate, unverified password account for the same address, as a release without linking left it.
    const legacy = await createApp(testConfig({ ...api.app.config, accountLinking: false, mailCatcher: false }), { clock: api.clock });
    try {
      expect((await signUpWithPassword(legacy.ctx, { email, password: PASSWORD })).status).toBe("OK");
    } finally {
      await legacy.close();
    }

    const tab = await openFreshTab();
    await tab.goto(`${web.url}/auth`);
    await fillUi(tab, "email", email);
    await fillUi(tab, "password", "not the password at all");
    await clickUi(tab, /^sign in$/);
    await waitForUiText(tab, /Incorrect email and password combination/i);
    expect(await readUiText(tab)).not.toContain("ERR_CODE_008");

    await fillUi(tab, "password", PASSWORD);
    await clickUi(tab, /^sign in$/);
    await waitForUiText(tab, literally(SHOWN.signInRefused));
    expect(new URL(tab.url()).pathname).toMatch(/^\/auth\/?$/);
    expect(await tab.$("#user-id")).toBeNull();
    expect(tab.problems).toEqual([]);
  });

  it("said no 5xx to the SDK along the way", () => {
    expect(errors).toEqual([]);
  });
});
