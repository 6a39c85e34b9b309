import { beforeAll, describe, expect, it } from "vitest";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { listOutboxMessages } from "../../src/store/outbox.js";
import { markEmailVerified } from "../../src/store/users.js";
import { credentials, postJson, readTokens, refresh } from "../helpers/session-client.js";
import { expectAccessible, expectNoHorizontalScroll, openTab, usePagesSuite, waitVisible } from "./harness.js";

/**
 * The new sign-in mail's "This wasn't me" page in Chromium, with axe: one button signs every
 * device and app out, then the page offers to choose a new password.
 */

const PW = "correct horse battery staple";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

describe("\"this wasn't me\" (Chromium)", () => {
  const suite = usePagesSuite({ newSignInMail: true });
  beforeAll(async () => {
    const up = await signUpWithPassword(suite.s.app.ctx, { email: "nia@example.com", password: PW });
    if (up.status !== "OK") throw new Error(up.status);
    await markEmailVerified(suite.s.app.store.db, up.user.id, "nia@example.com", Date.now());
  });
  const signIn = async (ua: string) => readTokens(await postJson(`${suite.s.url}/auth/signin`, credentials("nia@example.com", PW), { "st-auth-mode": "header", "user-agent": ua }), "header");

  it("signs everything out from the mail's link and offers a new password", async () => {
    const mine = await signIn("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"); // the first: nothing mailed
    const theirs = await signIn(CHROME);
    const mails = await listOutboxMessages(suite.s.app.store.db, { kind: "new_sign_in", to: "nia@example.com" });
    expect(mails).toHaveLength(1);
    const link = /https?:\/\/\S+not-me\S+/.exec(mails[0].text_body!)![0];

    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await page.goto(link);
    expect(await page.$eval("h1", (h) => h.textContent)).toBe("Someone else signed in?");
    expect(page.url()).not.toContain("token="); // taken out of the address bar
    await expectAccessible(page, "this wasn't me");
    await page.setViewport({ width: 360, height: 800 });
    await expectNoHorizontalScroll(page, "this wasn't me at 360 px");
    await page.focus("#not-me");
    await page.keyboard.press("Enter");
    await waitVisible(page, "#done-title"); // (its words are in the page from the start, hidden)
    expect(await page.$eval("#done-title", (h) => h.textContent)).toBe("Everything is signed out");
    expect(await page.$eval("#reset-link", (a) => (a as HTMLAnchorElement).href)).toBe(`${suite.s.url}/auth/reset-password`);
    await expectAccessible(page, "signed out everywhere");
    expect((await refresh(suite.s.url, mine)).status).toBe(401);
    expect((await refresh(suite.s.url, theirs)).status).toBe(401);

    // The link again: it worked once.
    await page.goto(link);
    await page.click("#not-me");
    await waitVisible(page, "#refused-title");
    expect(await page.$eval("#refused-title", (h) => h.textContent)).toBe("This link does not work");
    expect(page.problems).toEqual([]);
  });
});
