import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "puppeteer-core";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { expectAccessible, fill, openTab, usePagesSuite, waitVisible } from "./harness.js";

/** A clock that runs with real time, plus whatever the test has moved it forward. */
function createShiftedClock() {
  let offset = 0;
  return { now: () => Date.now() + offset, advance: (ms: number) => { offset += ms; } };
}

/**
 * Sessions for server-rendered apps: such an app sends the browser to the hosted sign-in page when
 * its access token has expired (every 15 minutes by default); the page renews the session with the
 * refresh token and sends the browser back, without asking for the password. And a hosted sign-out.
 */
describe("refresh-and-return sign-in page and hosted sign-out (Chromium)", () => {
  const clock = createShiftedClock();
  const suite = usePagesSuite({ pagesRedirectPaths: ["/", "/_dev/*"] }, { clock });
  beforeAll(async () => {
    await signUpWithPassword(suite.s.app.ctx, { email: "ssr@example.com", password: "server rendered 1", verified: true });
  });

  const cookie = async (page: Page, name: string) => (await page.cookies(`${suite.s.url}/auth/session/refresh`)).find((c) => c.name === name)?.value;
  const arrivedAt = (page: Page, path: string) => page.waitForFunction((u) => location.href === u, { timeout: 15_000 }, `${suite.s.url}${path}`);

  async function signIn(page: Page, redirect: string): Promise<void> {
    await page.goto(`${suite.s.url}/auth?redirectToPath=${encodeURIComponent(redirect)}`);
    await waitVisible(page, "#form");
    await fill(page, "#email", "ssr@example.com");
    await fill(page, "#password", "server rendered 1");
    await page.click("#submit");
    await arrivedAt(page, redirect);
  }

  it("after the access token expired, the sign-in page renews the session through the refresh token and returns, never showing the form", async () => {
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await signIn(page, "/_dev/mail");
    const [access1, refresh1] = [await cookie(page, "sAccessToken"), await cookie(page, "sRefreshToken")];
    expect(access1 && refresh1).toBeTruthy();

    clock.advance(16 * 60_000); // past the 15-minute access token
    let formShown = false;
    await page.exposeFunction("reportForm", () => { formShown = true; });
    await page.evaluateOnNewDocument(() => {
      new MutationObserver(() => {
        const f = document.getElementById("view-form");
        if (f && !f.hidden) (window as unknown as { reportForm(): void }).reportForm();
      }).observe(document, { subtree: true, attributes: true, childList: true });
    });
    await page.goto(`${suite.s.url}/auth?redirectToPath=${encodeURIComponent("/_dev/mail")}`);
    await arrivedAt(page, "/_dev/mail");
    expect(formShown).toBe(false);
    // Renewed: both tokens rotated, and the new access token is one the server accepts.
    const [access2, refresh2] = [await cookie(page, "sAccessToken"), await cookie(page, "sRefreshToken")];
    expect(access2).not.toBe(access1);
    expect(refresh2).not.toBe(refresh1);
    const verify = await page.evaluate(async () => (await fetch("/auth/user/email/verify", { headers: { rid: "emailverification" } })).status);
    expect(verify).toBe(200);

    // Only the refresh cookie left (the app deleted the access cookie): still renewed and returned.
    await page.deleteCookie({ name: "sAccessToken", url: suite.s.url });
    await page.goto(`${suite.s.url}/auth?redirectToPath=${encodeURIComponent("/_dev/mail")}`);
    await arrivedAt(page, "/_dev/mail");
    expect(await cookie(page, "sAccessToken")).toBeTruthy();
    expect(formShown).toBe(false);
    expect(page.problems).toEqual([]);
  });

  it("the hosted sign-out asks first (opening it signs nobody out), then revokes the session, clears the cookies and goes to an allowed redirect; the sign-in page then asks again", async () => {
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await signIn(page, "/");
    const sessionsBefore = await suite.s.app.store.db.selectFrom("sessions").select(["handle", "revoked_at", "revoke_reason"]).execute();

    // Opening the page (a link from anywhere) signs nobody out: it asks.
    await page.goto(`${suite.s.url}/auth/sign-out?redirectToPath=${encodeURIComponent("/_dev/mail")}`);
    await waitVisible(page, "#sign-out");
    await expectAccessible(page, "sign-out page");
    expect(await cookie(page, "sAccessToken")).toBeTruthy();
    expect((await suite.s.app.store.db.selectFrom("sessions").select("revoked_at").where("revoked_at", "is not", null).execute()).length)
      .toBe(sessionsBefore.filter((x) => x.revoked_at !== null).length);
    await page.click("#sign-out");
    await arrivedAt(page, "/_dev/mail");
    expect(await cookie(page, "sAccessToken")).toBeUndefined();
    expect(await cookie(page, "sRefreshToken")).toBeUndefined();
    const sessionsAfter = await suite.s.app.store.db.selectFrom("sessions").select(["handle", "revoked_at", "revoke_reason"]).execute();
    const revoked = sessionsAfter.filter((x) => x.revoked_at !== null && sessionsBefore.find((b) => b.handle === x.handle)?.revoked_at === null);
    expect(revoked.map((x) => x.revoke_reason)).toEqual(["signout"]);

    await page.goto(`${suite.s.url}/auth`);
    await waitVisible(page, "#form");
    await expectAccessible(page, "sign-in page after signing out");

    // Signed out already, and a redirect to another site: nothing to revoke, and the default path instead.
    await page.goto(`${suite.s.url}/auth/sign-out?redirectToPath=${encodeURIComponent("//evil.example/x")}`);
    await waitVisible(page, "#sign-out");
    await page.click("#sign-out");
    await arrivedAt(page, "/");
    expect(page.problems).toEqual([]);
  });

  it("a sign-out link followed from a page of this origin signs out at once, without asking; from another origin it still asks", async () => {
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await signIn(page, "/_dev/mail");
    // The link on a page of authsvc's own origin (here the inbox; a website that is the hosted pages alike).
    await page.evaluate(() => { const a = document.createElement("a"); a.href = "/auth/sign-out?redirectToPath=%2F"; a.id = "out"; a.textContent = "Sign out"; document.body.append(a); });
    await Promise.all([arrivedAt(page, "/"), page.click("#out")]);
    expect(await cookie(page, "sAccessToken")).toBeUndefined();
    expect(await cookie(page, "sRefreshToken")).toBeUndefined();
    const revoked = await suite.s.app.store.db.selectFrom("sessions").select("revoke_reason").where("revoke_reason", "=", "signout").execute();
    expect(revoked.length).toBeGreaterThan(0);

    // The same link from another origin (a page served elsewhere): the page asks, nobody is signed out.
    await signIn(page, "/_dev/mail");
    const before = (await suite.s.app.store.db.selectFrom("sessions").select("handle").where("revoked_at", "is not", null).execute()).length;
    const other = createServer((_req, res) => { res.setHeader("content-type", "text/html"); res.end(`<a id="out" href="${suite.s.url}/auth/sign-out?redirectToPath=%2F">Sign out</a>`); });
    await new Promise<void>((done) => other.listen(0, "127.0.0.1", done));
    try {
      await page.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
      await Promise.all([page.waitForNavigation(), page.click("#out")]);
      await waitVisible(page, "#sign-out");
      expect(await page.$eval("#progress-title", (h) => h.textContent)).toBe("Sign out?");
      expect(await cookie(page, "sAccessToken")).toBeTruthy();
      expect((await suite.s.app.store.db.selectFrom("sessions").select("handle").where("revoked_at", "is not", null).execute()).length).toBe(before);
    } finally {
      await new Promise((done) => other.close(done));
    }
    expect(page.problems).toEqual([]);
  });
});
