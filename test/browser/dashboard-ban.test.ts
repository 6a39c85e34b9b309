import type { Page } from "puppeteer-core";
import { beforeAll, describe, expect, it } from "vitest";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { listCaughtMail } from "../../src/store/caught-mail.js";
import { listOutboxMessages } from "../../src/store/outbox.js";
import { markEmailVerified } from "../../src/store/users.js";
import { createTestAdmin, signInToDashboard, type TestAdmin } from "../helpers/dashboard.js";
import { eventually } from "../helpers/mail.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { expectAccessible, expectNoHorizontalScroll, fill, openTab, usePagesSuite } from "./harness.js";

/**
 * The dashboard's Ban panel in Chromium, with axe: an admin bans a person with a reason, an end and
 * a mail, by keyboard; the person's sign-in is refused and their session ends; the admin lifts it.
 */

const PW = "correct horse battery staple";

describe("the admin dashboard's ban (Chromium)", () => {
  const suite = usePagesSuite();
  let admin: TestAdmin;
  let id = "";
  beforeAll(async () => {
    admin = await createTestAdmin(suite.s.app, { email: "admin@example.com" });
    const up = await signUpWithPassword(suite.s.app.ctx, { email: "bea@example.com", password: PW });
    if (up.status !== "OK") throw new Error(up.status);
    id = up.user.id;
    await markEmailVerified(suite.s.app.store.db, id, "bea@example.com", Date.now());
  });

  const signIn = async () => {
    const res = await postJson(`${suite.s.url}/auth/signin`, credentials("bea@example.com", PW), { "st-auth-mode": "header" });
    return { res, json: (await res.json()) as Record<string, unknown> };
  };
  const flash = (page: Page) => page.$eval(".flash", (el) => el.textContent ?? "");

  it("bans with a reason, an end and a mail, by keyboard; the person is shut out; the ban is lifted", async () => {
    const live = await signIn();
    expect(live.json.status).toBe("OK");
    const access = live.res.headers.get("st-access-token")!;

    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await signInToDashboard(page, suite.s.url, admin);
    await page.goto(`${suite.s.url}/admin/users/${id}`);
    expect(await page.$eval("#ban-h", (h) => h.textContent)).toBe("Ban");
    await expectAccessible(page, "person page with the ban form");

    await fill(page, "#ban-reason", "Chargebacks on three orders");
    await fill(page, "#ban-until", "7d");
    await page.click('input[name="mail"]');
    // The button from the keyboard: Tab from the checkbox, Enter.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Ban bea@example.com");
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    expect(await flash(page)).toBe("Banned: ended 1 session; they were mailed.");
    const panel = await page.$eval("#ban-h", (h) => h.closest("section")!.textContent ?? "");
    expect(panel).toMatch(/banned/);
    expect(panel).toContain("Chargebacks on three orders");
    await expectAccessible(page, "person page of a banned person");
    await page.setViewport({ width: 360, height: 800 });
    await expectNoHorizontalScroll(page, "person page of a banned person at 360 px");
    await page.setViewport({ width: 1024, height: 800 });

    expect((await signIn()).json.status).toBe("SIGN_IN_NOT_ALLOWED");
    expect((await fetch(`${suite.s.url}/auth/user/email/verify`, { headers: { authorization: `Bearer ${access}` } })).status).toBe(401);
    // The mail as it arrived in the catcher (the outbox forgets a body once it is sent).
    const [queued] = await listOutboxMessages(suite.s.app.store.db, { kind: "account_banned", to: "bea@example.com" });
    expect(queued.subject).toBe("Your account has been suspended");
    const arrived = async () => (await listCaughtMail(suite.s.app.store.db, { to: "bea@example.com" })).map((m) => m.text_body ?? "").join("\n");
    await eventually(async () => (await arrived()).includes("(reason:"));
    expect(await arrived()).toContain("(reason: Chargebacks on three orders)");

    await Promise.all([page.waitForNavigation(), page.click('form[action$="/unban"] button')]);
    expect(await flash(page)).toBe("The ban is lifted: they may sign in again.");
    expect(await page.$("#ban-reason")).not.toBeNull();
    expect((await signIn()).json.status).toBe("OK");
    expect(page.problems).toEqual([]);
  });
});
