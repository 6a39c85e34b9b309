import { describe, expect, it } from "vitest";
import type { HTTPResponse } from "puppeteer-core";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { fill, openTab, usePagesSuite, waitVisible } from "./harness.js";

/**
 * A page opened by someone not signed in learns it without a request bound to fail: Chromium logs
 * every 4xx as a red console error, which reads as a fault to whoever opens the console. The pages
 * keep the SDKs' front-token cookie and ask the server only when it says a session may exist.
 */
describe("hosted pages opened signed out (Chromium)", () => {
  const suite = usePagesSuite({ passwordlessFlowType: "code", pagesRedirectPaths: ["/", "/_dev/*"] });
  const pages = ["/", "/auth", "/auth/verify-email", "/auth/reset-password", "/auth/sign-out", "/auth/mfa", "/auth/second-factor", "/auth/passkeys", "/auth/account", "/auth/sign-in-code", "/auth/connected-apps"];

  it.each(pages)("%s logs no console error and no failed request", async (path) => {
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    const errors: string[] = [];
    page.on("console", (m) => { if (m.type() === "error") errors.push(`console: ${m.text()}`); });
    page.on("response", (r: HTTPResponse) => { if (r.status() >= 400) errors.push(`${r.request().method()} ${r.url()} ${r.status()}`); });
    page.on("requestfailed", (r) => errors.push(`failed: ${r.url()}`));
    await page.goto(`${suite.s.url}${path}`, { waitUntil: "networkidle0" });
    expect((await page.$eval("main", (m) => (m as HTMLElement).innerText)).trim()).not.toBe(""); // the page shows itself
    expect(errors).toEqual([]);
    expect(page.problems).toEqual([]);
  });

  it("once signed in, the pages still find the session; after signing out they are quiet again", async () => {
    await signUpWithPassword(suite.s.app.ctx, { email: "quiet@example.com", password: "quiet password 1", verified: true });
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await page.goto(`${suite.s.url}/auth?redirectToPath=${encodeURIComponent("/_dev/mail")}`);
    await waitVisible(page, "#form");
    await fill(page, "#email", "quiet@example.com");
    await fill(page, "#password", "quiet password 1");
    await page.click("#submit");
    await page.waitForFunction((u) => location.href === u, { timeout: 15_000 }, `${suite.s.url}/_dev/mail`);
    await page.goto(`${suite.s.url}/auth/account`, { waitUntil: "networkidle0" });
    await page.waitForFunction(() => document.body.textContent!.includes("quiet@example.com"), { timeout: 15_000 });

    await page.goto(`${suite.s.url}/auth/sign-out?redirectToPath=${encodeURIComponent("/_dev/mail")}`);
    await waitVisible(page, "#sign-out-form button[type=submit]");
    await page.click("#sign-out-form button[type=submit]");
    await page.waitForFunction((u) => location.href === u, { timeout: 15_000 }, `${suite.s.url}/_dev/mail`);
    expect((await page.cookies(suite.s.url)).map((c) => c.name)).not.toContain("sFrontToken");
    const failed: string[] = [];
    page.on("response", (r: HTTPResponse) => { if (r.status() >= 400) failed.push(`${r.url()} ${r.status()}`); });
    await page.goto(`${suite.s.url}/auth/account`, { waitUntil: "networkidle0" });
    expect(failed).toEqual([]);
  });
});
