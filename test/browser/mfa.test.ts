import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "puppeteer-core";
import { generateCode } from "../../src/methods/totp/secrets.js";
import { closedPort } from "../helpers/oidc-provider.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { bundleFrontend, createOffsetClock, startApi, startFrontend, TOKEN_MODES, type ApiServer, type FrontendServer } from "./frontend-app.js";
import { expectAccessible, fill, launchBrowser, openTab, usePagesSuite, waitForText, waitVisible } from "./harness.js";
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

/**
 * The hosted pages (no frontend of the app's own): "manage my second factor" for a signed-in user,
 * the set-up page (QR code, key, confirm, recovery codes shown once), and at the next sign-in a
 * recovery code in place of the app's code.
 */
/** Ids that more than one element of the page carries (a label or an alert then points at the wrong one). */
function duplicateIds(page: Page): Promise<string[]> {
  return page.$$eval("[id]", (all) => {
    const seen = new Set<string>();
    return all.map((e) => e.id).filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
  });
}

describe("the hosted second-factor pages (Chromium)", () => {
  const clock = createOffsetClock();
  const suite = usePagesSuite({ pagesRedirectPaths: ["/auth/second-factor", "/"] }, { clock });
  const email = "hosted-mfa@example.com";
  let recoveryCodes: string[] = [];
  beforeAll(async () => {
    await signUpWithPassword(suite.s.app.ctx, { email, password: PASSWORD, verified: true });
  });
  const arrivedAt = (page: Page, path: string) => page.waitForFunction((u) => location.href === u, { timeout: 15_000 }, `${suite.s.url}${path}`);

  async function signIn(page: Page): Promise<void> {
    await page.goto(`${suite.s.url}/auth?redirectToPath=${encodeURIComponent("/auth/second-factor")}`);
    await waitVisible(page, "#form");
    await fill(page, "#email", email);
    await fill(page, "#password", PASSWORD);
    await page.click("#submit");
  }

  it("turns TOTP on from the manage page: QR code and key, a code from the key confirms, the recovery codes are shown once", async () => {
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await signIn(page);
    await arrivedAt(page, "/auth/second-factor");
    await waitForText(page, "#state", /password only/);
    // No second factor, no recovery codes to renew: the button is hidden (a CSS rule once showed it).
    expect(await page.$eval("#new-codes", (e) => getComputedStyle(e).display)).toBe("none");
    expect(await duplicateIds(page)).toEqual([]);
    await page.click("#add");
    await waitVisible(page, "#setup-form");
    expect(await duplicateIds(page)).toEqual([]); // one id="code-error" once belonged to two elements
    expect(await page.$eval("#qr", (e) => (e as HTMLImageElement).src)).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(await page.$eval("#qr", (e) => (e as HTMLImageElement).naturalWidth)).toBeGreaterThan(0); // the strict CSP let it load
    const secret = (await page.$eval("#secret", (e) => e.textContent ?? "")).replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await fill(page, "#setup-code", generateCode(secret, clock.now()));
    await page.click("#setup-form button[type=submit]");
    await waitVisible(page, "#codes li");
    recoveryCodes = await page.$$eval("#codes li", (items) => items.map((i) => i.textContent ?? ""));
    expect(recoveryCodes).toHaveLength(10);
    // Each code on one line (the page breaks long words anywhere, never inside a code).
    const lines = await page.$$eval("#codes li", (items) => items.map((i) => Math.round(i.getBoundingClientRect().height / parseFloat(getComputedStyle(i).lineHeight))));
    expect(lines).toEqual(recoveryCodes.map(() => 1));
    // Download is a text file of the codes, one per line; Copy puts the same text on the clipboard.
    expect(await page.$eval("#codes-download", (a) => a.getAttribute("download"))).toBe("recovery-codes.txt");
    const href = await page.$eval("#codes-download", (a) => (a as HTMLAnchorElement).href);
    expect(decodeURIComponent(href.replace(/^data:text\/plain;charset=utf-8,/, ""))).toBe(recoveryCodes.join("\n") + "\n");
    await page.browserContext().overridePermissions(suite.s.url, ["clipboard-read", "clipboard-write", "clipboard-sanitized-write"]);
    await page.click("#codes-copy");
    await waitForText(page, "#codes-status", /^Copied\./);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(recoveryCodes.join("\n") + "\n");
    await expectAccessible(page, "the recovery codes");
    await page.click("#codes-continue");
    await arrivedAt(page, "/auth/second-factor");
    await waitForText(page, "#devices", /TOTP Device 0/);
    expect(page.problems).toEqual([]);
  });

  it("at the next sign-in asks for the code; a recovery code lets the user in once and mails them", async () => {
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await signIn(page);
    await waitVisible(page, "#code-form");
    expect(new URL(page.url()).pathname).toBe("/auth/mfa");
    await fill(page, "#code", "000000");
    await page.click("#code-form button[type=submit]");
    await waitForText(page, "#code-form-error", /not right/);
    await page.click("#use-recovery");
    await fill(page, "#recovery-code", recoveryCodes[3]);
    await page.click("#recovery-form button[type=submit]");
    await arrivedAt(page, "/auth/second-factor");
    const mail = await suite.s.app.store.db.selectFrom("mail_outbox").select("subject").where("to_address", "=", email).where("kind", "=", "mfa_recovery_code_used").execute();
    expect(mail).toEqual([{ subject: "A recovery code was used to sign in" }]);
    // The same recovery code again, in another browser: refused.
    const other = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await signIn(other);
    await waitVisible(other, "#code-form");
    await other.click("#use-recovery");
    await fill(other, "#recovery-code", recoveryCodes[3]);
    await other.click("#recovery-form button[type=submit]");
    await waitForText(other, "#recovery-error", /not right/);
    expect(page.problems).toEqual([]);
  });
});
