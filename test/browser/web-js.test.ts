import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "puppeteer-core";
import { waitForCaughtMail } from "../helpers/mail.js";
import { closedPort } from "../helpers/oidc-provider.js";
import { bundleFrontend, EXAMPLES, WEB_JS_PLACEHOLDERS, startApi, startFrontend, TOKEN_MODES, type ApiServer, type FrontendServer } from "./frontend-app.js";
import { launchBrowser, openTab } from "./harness.js";

/**
 * supertokens-web-js without a UI (examples/frontend/web-js.ts, shown in the frontend docs): the
 * example's functions, called in the page as an app's own screens would call them, in both modes.
 */

/** The example's exports, as the page sees them (the bundle puts them on `app`). */
declare const app: {
  signUp(email: string, password: string): Promise<Record<string, string> | null>;
  verifyEmailFromLink(): Promise<boolean>;
  signIn(email: string, password: string): Promise<boolean>;
  sendResetMail(email: string): Promise<void>;
  resetPasswordFromLink(password: string): Promise<boolean>;
  currentUserId(): Promise<string | null>;
  signOut(): Promise<void>;
};

describe.each(TOKEN_MODES)("supertokens-web-js in $method mode (Chromium)", ({ method, host }) => {
  let api: ApiServer;
  let web: FrontendServer;
  let browser: Browser;
  let page: Page & { problems: string[] };
  const email = `grace-${method}@example.com`;

  beforeAll(async () => {
    const bundle = await bundleFrontend(EXAMPLES.webJs, { placeholders: WEB_JS_PLACEHOLDERS, globalName: "app" });
    const port = await closedPort();
    api = await startApi(`http://${host}:${port}`);
    web = await startFrontend(bundle, { apiDomain: api.url, tokenTransferMethod: method }, { port, host });
    browser = await launchBrowser();
    page = await openTab(browser, web.url);
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await api?.close();
  });

  it("signs up, verifies from the mailed link, refreshes an expired session, resets the password and signs out", async () => {
    await page.goto(`${web.url}/`);
    expect(await page.evaluate(() => app.currentUserId())).toBeNull();
    const fieldErrors = await page.evaluate((e) => app.signUp(e, "short"), email);
    expect(fieldErrors?.password).toMatch(/at least 8/);
    expect(await page.evaluate((e) => app.signUp(e, "correct horse battery staple"), email)).toBeNull();
    const user = await api.app.store.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    expect(await page.evaluate(() => app.currentUserId())).toBe(user.id);

    const verify = await waitForCaughtMail(api.app, email, { action: "verify-email" });
    await page.goto(verify.link!);
    expect(await page.evaluate(() => app.verifyEmailFromLink())).toBe(true);

    // The server's clock moves past the access token's 15 minutes: the SDK refreshes on the next call.
    api.clock.advance(16 * 60_000);
    const refreshed = page.waitForResponse((r) => r.url() === `${api.url}/auth/session/refresh` && r.request().method() === "POST");
    const verified = await page.evaluate(async (u) => (await (await fetch(`${u}/auth/user/email/verify`)).json()) as { isVerified: boolean }, api.url);
    expect((await refreshed).status()).toBe(200);
    expect(verified.isVerified).toBe(true);

    await page.evaluate(() => app.signOut());
    expect(await page.evaluate(() => app.currentUserId())).toBeNull();
    await page.evaluate((e) => app.sendResetMail(e), email);
    const reset = await waitForCaughtMail(api.app, email, { action: "reset-password" });
    await page.goto(reset.link!);
    expect(await page.evaluate(() => app.resetPasswordFromLink("a fresh and long passphrase"))).toBe(true);
    expect(await page.evaluate((e) => app.signIn(e, "correct horse battery staple"), email)).toBe(false);
    expect(await page.evaluate((e) => app.signIn(e, "a fresh and long passphrase"), email)).toBe(true);
    expect(await page.evaluate(() => app.currentUserId())).toBe(user.id);
    expect(page.problems).toEqual([]);
  });
});
