import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "puppeteer-core";
import { generateCode } from "../../src/methods/totp/secrets.js";
import { closedPort } from "../helpers/oidc-provider.js";
import { bundleFrontend, startApi, startFrontend, TOKEN_MODES, type ApiServer, type FrontendServer } from "./frontend-app.js";
import { launchBrowser, openTab } from "./harness.js";
import { clickUi, fillUi, waitForUiText } from "./prebuilt-ui-driver.js";

/**
 * The real supertokens-auth-react prebuilt UI with the MultiFactorAuth and TOTP recipes
 * (examples/frontend/prebuilt-ui-mfa.tsx) against authsvc with --mfa required, in Chromium, in
 * both token transfer methods: set-up right after sign-up from the shown secret, then a sign-in
 * with password and code. The codes are computed from the secret as an authenticator app would.
 */
const ENTRY = join(import.meta.dirname, "../../examples/frontend/prebuilt-ui-mfa.tsx");
const PASSWORD = "correct horse battery staple";

describe.each(TOKEN_MODES)("the prebuilt UI's second factor (TOTP) in $method mode (Chromium)", ({ method, host }) => {
  let api: ApiServer;
  let web: FrontendServer;
  let browser: Browser;
  let page: Page & { problems: string[] };
  let secret = "";
  const calls: Array<{ method: string; path: string; status: number }> = [];
  const email = `mfa-${method}@example.com`;

  beforeAll(async () => {
    const bundle = await bundleFrontend(ENTRY);
    // The app's origin must be known to the API (CORS) before the app is served on that port.
    const port = await closedPort();
    const website = `http://${host}:${port}`;
    api = await startApi(website, { mfa: "required" });
    web = await startFrontend(bundle, { apiDomain: api.url, websiteDomain: website, tokenTransferMethod: method }, { port, host });
    browser = await launchBrowser();
    page = await openTab(browser, web.url);
    page.on("response", (r) => {
      if (!r.url().startsWith(api.url) || r.request().method() === "OPTIONS") return;
      calls.push({ method: r.request().method(), path: new URL(r.url()).pathname, status: r.status() });
    });
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await api?.close();
  });

  async function expectHome(tab: Page): Promise<void> {
    await tab.waitForSelector("#user-id", { timeout: 15_000 });
    const user = await api.app.store.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    expect(await tab.$eval("#user-id", (e) => e.textContent)).toBe(user.id);
  }

  it("signs up and is sent to set up TOTP: the secret shown, a code from it verifies the device, then home", async () => {
    await page.goto(`${web.url}/auth?show=signup`);
    await fillUi(page, "email", email);
    await fillUi(page, "password", PASSWORD);
    await clickUi(page, /^sign up$/);
    await waitForUiText(page, /Add a TOTP device/i);
    expect(new URL(page.url()).pathname).toBe("/auth/mfa/totp");
    await clickUi(page, /^secret key$/);
    const shown = await page.waitForSelector("pierce/[data-supertokens~=totpSecret]", { visible: true, timeout: 15_000 });
    secret = (await shown!.evaluate((e) => e.textContent ?? "")).trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await fillUi(page, "totp", generateCode(secret, api.clock.now()));
    await clickUi(page, /^continue$/);
    await expectHome(page);
    const device = await api.app.store.db.selectFrom("totp_devices").selectAll().executeTakeFirstOrThrow();
    expect(device.verified_at).not.toBeNull();
    expect(page.problems).toEqual([]);
  });

  it("signs out, signs in with the password, is asked for a code: a wrong one shows the SDK's message, the right one lets in", async () => {
    await clickUi(page, /^sign out$/);
    await waitForUiText(page, /Sign In/);
    await fillUi(page, "email", email);
    await fillUi(page, "password", PASSWORD);
    await clickUi(page, /^sign in$/);
    await waitForUiText(page, /Enter TOTP/i);
    // Two steps later for the server: the set-up code (used once already) is not the current one.
    api.clock.advance(60_000);
    const right = generateCode(secret, api.clock.now());
    await fillUi(page, "totp", right === "000000" ? "111111" : "000000");
    await clickUi(page, /^continue$/);
    await waitForUiText(page, /Invalid TOTP\. Please try again\./);
    // The SDK's own count (max − failures + 1, its formula) from the failure count authsvc answered.
    await waitForUiText(page, /5\s*attempt\(s\) remaining before account is temporarily locked/);
    await fillUi(page, "totp", right);
    await clickUi(page, /^continue$/);
    await expectHome(page);
    expect(page.problems).toEqual([]);
  });

  it("said nothing worse than 401 to the SDK along the way (403 only while the second factor was missing)", () => {
    expect(calls.filter((c) => c.status >= 400 && c.status !== 401 && c.status !== 403)).toEqual([]);
    expect(calls.some((c) => c.path === "/auth/mfa/info" && c.status === 200)).toBe(true);
  });
});
