import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "puppeteer-core";
import { waitForCaughtMail } from "../helpers/mail.js";
import { lastMailId } from "../helpers/passwordless.js";
import { closedPort } from "../helpers/oidc-provider.js";
import { bundleFrontend, EXAMPLES, startApi, startFrontend, type ApiServer, type FrontendServer } from "./frontend-app.js";
import { launchBrowser, openTab } from "./harness.js";
import { clickUi, fillUi, readUiText, waitForUiText } from "./prebuilt-ui-driver.js";

/**
 * The real supertokens-auth-react passwordless prebuilt UI (examples/frontend/prebuilt-ui-passwordless.tsx)
 * against authsvc in Chromium: a code typed from the mail, the mailed link in the same browser,
 * and the link in a fresh browser (another device, or a mail scanner), which must ask for a click.
 */
describe("the passwordless prebuilt UI (Chromium)", () => {
  let api: ApiServer;
  let web: FrontendServer;
  let browser: Browser;
  let page: Page & { problems: string[] };

  beforeAll(async () => {
    const bundle = await bundleFrontend(EXAMPLES.prebuiltUiPasswordless);
    const port = await closedPort();
    const website = `http://127.0.0.1:${port}`;
    api = await startApi(website);
    web = await startFrontend(bundle, { apiDomain: api.url, websiteDomain: website, tokenTransferMethod: "cookie" }, { port });
    browser = await launchBrowser();
    page = await openTab(browser, web.url);
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await api?.close();
  });

  async function expectSignedInAs(tab: Page, email: string): Promise<void> {
    await tab.waitForSelector("#user-id", { timeout: 15_000 }).catch(async (err) => { throw new Error(`${err}: at ${tab.url()} the page shows ${await readUiText(tab)}`); });
    const id = await tab.$eval("#user-id", (e) => e.textContent);
    const row = await api.app.store.db.selectFrom("passwordless_users as p").innerJoin("users as u", "u.id", "p.user_id")
      .select((eb) => eb.fn.coalesce("u.primary_user_id", "u.id").as("person")).where("p.email", "=", email).executeTakeFirstOrThrow();
    expect(id).toBe(row.person);
  }

  /** Asks the UI for a code for `email` on `tab` and returns the mail that arrived. */
  async function requestCode(tab: Page, email: string) {
    const afterId = await lastMailId(api.app);
    await tab.goto(`${web.url}/auth`);
    await fillUi(tab, "email", email);
    await clickUi(tab, /^continue$/);
    await waitForUiText(tab, /Enter OTP/i);
    return waitForCaughtMail(api.app, email, { action: "passwordless", afterId });
  }

  const signOut = async (tab: Page) => {
    await tab.click("#sign-out");
    await tab.waitForFunction(() => location.pathname === "/auth", { timeout: 15_000 });
  };

  it("signs up with the code typed from the mail", async () => {
    const email = "otp-user@example.com";
    const mail = await requestCode(page, email);
    expect(mail.code).toMatch(/^\d{6}$/);
    await fillUi(page, "userInputCode", mail.code!);
    await clickUi(page, /^continue$/);
    await expectSignedInAs(page, email);
    expect(page.problems).toEqual([]);
    await signOut(page);
  });

  it("signs in with the mailed link opened in the same browser", async () => {
    const email = "otp-user@example.com";
    const mail = await requestCode(page, email);
    expect(mail.link).toMatch(new RegExp(`^${web.url}/auth/verify\\?preAuthSessionId=[^#]+&tenantId=public#[A-Za-z0-9_-]{43}$`));
    await page.goto(mail.link!);
    await expectSignedInAs(page, email);
    await signOut(page);
  });

  it("asks for a click before signing in when the link is opened in another browser (a scanner that fetches it signs no one in)", async () => {
    const email = "link-elsewhere@example.com";
    const mail = await requestCode(page, email);
    // A scanner that fetches the link (no JavaScript) sends neither the link code nor anything else.
    expect((await fetch(mail.link!)).status).toBe(200);
    let fresh: BrowserContext | undefined;
    try {
      fresh = await browser.createBrowserContext();
      const other = await openTab(fresh, web.url);
      await other.goto(mail.link!);
      await waitForUiText(other, /Click the button below to log in on this device/i);
      expect(await api.app.store.db.selectFrom("passwordless_users").select("user_id").where("email", "=", email).executeTakeFirst()).toBeUndefined();
      expect(await readUiText(other)).not.toMatch(/user-id/);
      await clickUi(other, /^continue$/);
      await expectSignedInAs(other, email);
      expect(other.problems).toEqual([]);
    } finally {
      await fresh?.close();
    }
    // The first browser's flow is over: its code was retired by the sign-in elsewhere.
    await fillUi(page, "userInputCode", mail.code!);
    await clickUi(page, /^continue$/);
    // RESTART_FLOW_ERROR: the UI starts over at the sign-in form.
    await waitForUiText(page, /Login unsuccessful\. Please try again\./);
    expect(new URL(page.url()).pathname).toBe("/auth");
  });
});
