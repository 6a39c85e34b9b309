import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "puppeteer-core";
import { closedPort } from "../helpers/oidc-provider.js";
import { bundleFrontend, EXAMPLES, WEB_JS_PLACEHOLDERS, startApi, startFrontend, type ApiServer, type FrontendServer } from "./frontend-app.js";
import { launchBrowser, openTab } from "./harness.js";

/**
 * The production layout docs/frontend.md recommends for cookie mode: the app and authsvc on two
 * hosts of one site (app.example.test and auth.example.test, both mapped to loopback inside
 * Chromium), with --cookie-domain so a sibling host (the app's own API) receives the session too.
 */

describe("cookie mode across two hosts of one site (Chromium)", () => {
  let api: ApiServer;
  let web: FrontendServer;
  let browser: Browser;
  let page: Page & { problems: string[] };

  beforeAll(async () => {
    const bundle = await bundleFrontend(EXAMPLES.webJs, { placeholders: WEB_JS_PLACEHOLDERS, globalName: "app" });
    const port = await closedPort();
    const website = `http://app.example.test:${port}`;
    api = await startApi(website, { cookieDomain: ".example.test" }, "auth.example.test");
    web = await startFrontend(bundle, { apiDomain: api.url, tokenTransferMethod: "cookie" }, { port, host: "app.example.test" });
    browser = await launchBrowser(["--host-resolver-rules=MAP *.example.test 127.0.0.1"]);
    page = await openTab(browser, web.url);
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await api?.close();
  });

  it("keeps the session in SameSite=Lax cookies for the whole site, and refreshes it", async () => {
    await page.goto(`${web.url}/`);
    expect(await page.evaluate(() => (globalThis as unknown as { app: { signUp(e: string, p: string): Promise<unknown> } }).app.signUp("lin@example.com", "correct horse battery staple"))).toBeNull();
    const access = (await page.cookies(api.url)).find((c) => c.name === "sAccessToken");
    expect(access).toMatchObject({ domain: ".example.test", sameSite: "Lax", httpOnly: true });
    // A sibling host of the site (the app's own API) gets the cookie as well.
    expect((await page.cookies("http://api.example.test/")).map((c) => c.name)).toContain("sAccessToken");

    api.clock.advance(16 * 60_000);
    const refreshed = page.waitForResponse((r) => r.url() === `${api.url}/auth/session/refresh` && r.request().method() === "POST");
    const status = await page.evaluate(async (u) => (await fetch(`${u}/auth/user/email/verify`)).status, api.url);
    expect((await refreshed).status()).toBe(200);
    expect(status).toBe(200);
    expect(page.problems).toEqual([]);
  });
});
