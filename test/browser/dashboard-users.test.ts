import type { Page } from "puppeteer-core";
import { beforeAll, describe, expect, it } from "vitest";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { generateCode } from "../../src/methods/totp/secrets.js";
import { createTestAdmin, signInToDashboard, type TestAdmin } from "../helpers/dashboard.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { credentials, jwtPayload, postJson, postWithSession } from "../helpers/session-client.js";
import { expectAccessible, expectNoHorizontalScroll, fill, openTab, screenshot, usePagesSuite, waitForText } from "./harness.js";

/**
 * The dashboard's users room in Chromium: an admin looks a person up and fixes what stops them
 * signing in, every action a POSTed form (post/redirect/get), by mouse and by keyboard, at 360 px.
 */

const PW = "correct horse battery staple";

describe("the admin dashboard's users and people (Chromium)", () => {
  const suite = usePagesSuite({ limitSigninFailures: "3/1h", limitSigninFreeFailures: 1 });
  let admin: TestAdmin;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    admin = await createTestAdmin(suite.s.app, { email: "admin@example.com" });
    for (const email of ["pat@example.com", "pat.other@example.com", "sam@example.com", "sam-google@example.com", "gone@example.com"]) {
      const up = await signUpWithPassword(suite.s.app.ctx, { email, password: PW });
      if (up.status !== "OK") throw new Error(up.status);
      ids[email] = up.user.id;
    }
  });

  const signIn = async (email: string, password = PW) => postJson(`${suite.s.url}/auth/signin`, credentials(email, password), { "st-auth-mode": "header" });
  /** Submits the form whose action ends with `action` (and holds `value` when given) by its button, and waits for the page it lands on. */
  async function press(page: Page, action: string, value?: string): Promise<void> {
    const sel = value ? `form[action$="${action}"]:has(input[value="${value}"]) button` : `form[action$="${action}"] button`;
    await Promise.all([page.waitForNavigation(), page.click(sel)]);
  }
  const flash = (page: Page) => page.$eval(".flash", (el) => el.textContent ?? "");

  it("searches by email prefix, opens the person, and verifies them, revokes a session, resets the second factor and clears a lock", async () => {
    // Pat: signed in somewhere, an authenticator app, and locked out by failed sign-ins.
    const res = await signIn("pat@example.com");
    const tokens = { mode: "header" as const, access: res.headers.get("st-access-token")!, refresh: res.headers.get("st-refresh-token")! };
    const dev = await postWithSession(suite.s.url, "/totp/device", tokens, {});
    await postWithSession(suite.s.url, "/totp/device/verify", tokens, { deviceName: dev.json.deviceName, totp: generateCode(dev.json.secret, Date.now()) });
    for (let i = 0; i < 3; i++) await signIn("pat@example.com", "not the password at all");
    expect(((await (await signIn("pat@example.com")).json()) as { status: string }).status).not.toBe("OK");

    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await signInToDashboard(page, suite.s.url, admin);
    await page.goto(`${suite.s.url}/admin/users`);
    // Keyboard only: focus the search box, type, Enter.
    await page.focus("#user-q");
    await page.keyboard.type("PAT");
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    const found = await page.$$eval("tbody th[scope=row] a", (as) => as.map((a) => a.textContent));
    expect(found).toEqual(["pat.other@example.com", "pat@example.com"]);
    await expectAccessible(page, "users list");
    await screenshot(page, "admin-users", { ignore: ["td.mono", "time"] });

    await Promise.all([page.waitForNavigation(), page.click(`a[href="/admin/users/${ids["pat@example.com"]}"]`)]);
    expect(await page.$eval("h1", (h) => h.textContent)).toBe("pat@example.com");
    expect(await page.$eval("#sessions-h + .table-wrap tbody", (t) => t.querySelectorAll("tr").length)).toBe(1);
    await expectAccessible(page, "person page");
    await screenshot(page, "admin-person", { ignore: ["td.mono", "dd.mono", "time", "#sessions-h + .table-wrap th"] });

    // Keyboard only: Tab reaches every link, field and button of the page, in order, and nothing else traps it.
    const reachable = await page.$$eval("a[href], button, input:not([type=hidden])", (els) => els.length);
    await page.focus("a.skip");
    const seen = new Set<string>();
    for (let i = 0; i < reachable + 5; i++) {
      seen.add(await page.evaluate(() => { const el = document.activeElement!; return `${el.tagName}:${el.closest("form")?.getAttribute("action") ?? ""}:${el.getAttribute("href") ?? ""}:${el.textContent?.trim() ?? ""}:${el.id}:${(el as HTMLInputElement).value ?? ""}`; }));
      await page.keyboard.press("Tab");
    }
    expect([...seen].filter((k) => /^(A|BUTTON|INPUT):/.test(k))).toHaveLength(reachable);

    await press(page, "/verified");
    expect(await flash(page)).toBe("Marked verified.");
    expect(await page.$eval("dl.facts", (d) => d.textContent)).toMatch(/pat@example\.com verified/);

    // The session's revoke button, reached and pressed from the keyboard.
    await page.focus('form[action$="/sessions/revoke"] button');
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    expect(await flash(page)).toBe("Session revoked.");
    expect(await page.$eval("#sessions-h + p", (p) => p.textContent)).toBe("No live session.");
    expect((await postJson(`${suite.s.url}/auth/session/refresh`, {}, { authorization: `Bearer ${tokens.refresh}`, "st-auth-mode": "header" })).status).toBe(401);

    await press(page, "/mfa/reset");
    expect(await flash(page)).toMatch(/^Second factor reset/);
    expect(await page.$eval("#mfa-h + dl", (d) => d.textContent)).toMatch(/not set up/);

    expect(await page.$eval("#locks-h ~ .table-wrap", (t) => t.textContent)).toMatch(/signin-failures/);
    await press(page, "/locks/clear", "pat@example.com");
    expect(await flash(page)).toMatch(/^Cleared signin-failures/);
    expect(((await (await signIn("pat@example.com")).json()) as { status: string }).status).toBe("OK");
    expect(jwtPayload((await signIn("pat@example.com")).headers.get("st-access-token")!).sub).toBe(ids["pat@example.com"]);

    await page.setViewport({ width: 360, height: 740 });
    await expectNoHorizontalScroll(page, "person page at 360 px");
    await page.goto(`${suite.s.url}/admin/users?q=pat`);
    await expectNoHorizontalScroll(page, "users list at 360 px");
    expect(page.problems).toEqual([]);
  });

  it("sends a reset link (the mail arrives), sets a password (they sign in with it), links and unlinks, and deletes only with the email typed back", async () => {
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await signInToDashboard(page, suite.s.url, admin);
    const sam = ids["sam@example.com"];
    await page.goto(`${suite.s.url}/admin/users/${sam}`);

    await press(page, "/reset-link");
    expect(await flash(page)).toBe("A password-reset link was mailed to sam@example.com.");
    const mail = await waitForCaughtMail(suite.s.app, "sam@example.com");
    expect(mail.subject).toMatch(/password/i);
    expect(await page.content()).not.toMatch(/reset-password\?token=/);

    await fill(page, "#new-password", "short");
    await Promise.all([page.waitForNavigation(), page.click('form[action$="/password"] button')]);
    expect(await flash(page)).toMatch(/^Password not changed: /);
    expect(await page.$eval(".flash", (el) => el.getAttribute("role"))).toBe("alert");
    await fill(page, "#new-password", "a new passphrase for sam");
    await Promise.all([page.waitForNavigation(), page.click('form[action$="/password"] button')]);
    expect(await flash(page)).toMatch(/^Password set/);
    expect(((await (await signIn("sam@example.com", "a new passphrase for sam")).json()) as { status: string }).status).toBe("OK");

    await fill(page, "#link-other", "sam-google@example.com");
    await Promise.all([page.waitForNavigation(), page.click('form[action$="/link"] button')]);
    expect(await flash(page)).toMatch(/^Linked sam-google@example\.com/);
    expect(await page.$$eval("#methods-h + .table-wrap tbody tr", (rows) => rows.length)).toBe(2);
    await press(page, "/unlink", ids["sam-google@example.com"]);
    expect(await flash(page)).toMatch(/^Unlinked login/);
    expect(await page.$$eval("#methods-h + .table-wrap tbody tr", (rows) => rows.length)).toBe(1);

    await page.goto(`${suite.s.url}/admin/users/${ids["gone@example.com"]}`);
    await fill(page, "#delete-confirm", "gone@example.co");
    await Promise.all([page.waitForNavigation(), page.click('form[action$="/delete"] button')]);
    expect(await flash(page)).toBe("Not deleted: type gone@example.com exactly to confirm.");
    await fill(page, "#delete-confirm", "gone@example.com");
    await Promise.all([page.waitForNavigation(), page.click('form[action$="/delete"] button')]);
    expect(new URL(page.url()).pathname).toBe("/admin/users");
    await waitForText(page, ".flash", /Deleted gone@example\.com\./);
    expect(((await (await signIn("gone@example.com")).json()) as { status: string }).status).toBe("WRONG_CREDENTIALS_ERROR");
    expect(page.problems).toEqual([]);
  });
});
