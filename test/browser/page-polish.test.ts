import { describe, expect, it } from "vitest";
import type { Page } from "puppeteer-core";
import { requestPasswordReset } from "../../src/methods/email-password/password-reset.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { renderMail } from "../../src/mail/templates.js";
import { mail } from "../../src/rooms.js";
import { changedPixelShare, expectAccessible, expectNoHorizontalScroll, fill, openTab, SCREENSHOT_TOLERANCE, screenshot, usePagesSuite, waitForText, waitVisible } from "./harness.js";
import { templateIn } from "../../src/mail/kinds.js";
import { wordsIn } from "../helpers/words.js";

/** What a screen reader would call the element: its accessible name, from Chromium's accessibility tree. */
async function accessibleName(page: Page, selector: string): Promise<string | undefined> {
  const el = await page.$(selector);
  const node = await page.accessibility.snapshot({ root: el!, interestingOnly: false });
  return node?.name;
}

describe("page and mail polish (Chromium)", () => {
  const suite = usePagesSuite();

  it("empty fields get sentences a person can act on; the form's error stands apart from the Email label; no 'Forgot your password?' on sign-up", async () => {
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await page.goto(`${suite.s.url}/auth`);
    await waitVisible(page, "#form");
    await page.click("#submit");
    await waitForText(page, "#email-error", /^Enter your email address\.$/);
    await waitForText(page, "#password-error", /^Enter your password\.$/);
    expect(await page.$eval("main", (m) => m.textContent)).not.toContain("Field is not optional");
    await fill(page, "#email", "not-an-address");
    await fill(page, "#password", "whatever it is");
    await page.click("#submit");
    await waitForText(page, "#email-error", /^Enter an email address such as name@example\.com\.$/);

    // A wrong password: the alert is a box of its own with room before the first label.
    await signUpWithPassword(suite.s.app.ctx, { email: "polish@example.com", password: "polished password 1", verified: true });
    await fill(page, "#email", "polish@example.com");
    await fill(page, "#password", "not the password");
    await page.click("#submit");
    await waitForText(page, "#form-error", /not correct/);
    // The progress message is gone, however fast the answer came (a stale "Signing in…" once stayed).
    await new Promise((r) => setTimeout(r, 100));
    expect(await page.$eval("#status", (e) => e.textContent)).toBe("");
    const gap = await page.evaluate(() => document.querySelector("label[for=email]")!.getBoundingClientRect().top - document.getElementById("form-error")!.getBoundingClientRect().bottom);
    expect(gap).toBeGreaterThanOrEqual(12);
    expect(await page.$eval("#form-error", (e) => getComputedStyle(e).borderTopStyle)).toBe("solid");
    await expectAccessible(page, "sign-in page with errors");
    await screenshot(page, "sign-in-error", { ignore: ["input:focus"] }); // the caret blinks

    expect(await page.$eval("#forgot", (e) => (e as HTMLElement).offsetParent !== null)).toBe(true);
    await page.click("#switch");
    await waitForText(page, "#form-title", /Sign up/);
    expect(await page.$eval("#forgot", (e) => (e as HTMLElement).offsetParent !== null)).toBe(false);
    expect(page.problems).toEqual([]);
  });

  it("Show/Hide password: a button named for what it does, that reveals and hides the password and keeps focus in the field", async () => {
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await page.goto(`${suite.s.url}/auth`);
    await waitVisible(page, "#form");
    await fill(page, "#password", "secret words");
    expect(await accessibleName(page, "#password + button.reveal")).toBe("Show password");
    await page.click("#password + button.reveal");
    expect(await page.$eval("#password", (e) => (e as HTMLInputElement).type)).toBe("text");
    expect(await accessibleName(page, "#password + button.reveal")).toBe("Hide password");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("password");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter"); // the keyboard works the button too
    expect(await page.$eval("#password", (e) => (e as HTMLInputElement).type)).toBe("password");
    expect(await page.$eval("#password", (e) => (e as HTMLInputElement).value)).toBe("secret words");
    await expectAccessible(page, "sign-in page with the password toggle");
  });

  it("the reset 'Check your email' view can send the link again or go back, and the new-password form names the account for password managers", async () => {
    await signUpWithPassword(suite.s.app.ctx, { email: "reset-polish@example.com", password: "reset polish 123", verified: true });
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url);
    await page.goto(`${suite.s.url}/auth/reset-password`);
    await waitVisible(page, "#view-request");
    await fill(page, "#email", "reset-polish@example.com");
    await page.click("#request-form button[type=submit]");
    await waitVisible(page, "#view-sent");
    await waitForText(page, "#view-sent", /works for 1 hour/);
    expect(await page.$eval("#view-sent a[href='/auth']", (a) => a.textContent)).toBe("Back to sign in");
    await expectAccessible(page, "reset-password page (check your email)");
    // Sent again at once: inside the per-address cooldown, the wait is said plainly and no second mail goes out.
    await page.click("#send-again");
    await waitForText(page, "#sent-error", /^Too many attempts\. Please wait \d+ seconds? and try again\.$/);
    const rows = await suite.s.app.store.db.selectFrom("mail_outbox").select("id").where("to_address", "=", "reset-polish@example.com").execute();
    expect(rows.length).toBe(1);
    await page.click("#other-address");
    await waitVisible(page, "#view-request");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("email");
    const r = await requestPasswordReset(suite.s.app.ctx, "reset-polish@example.com");
    const token = (r as { token?: string }).token!;
    await page.goto(`${suite.s.url}/auth/reset-password?token=${token}&tenantId=public`);
    await waitVisible(page, "#view-new");
    const username = await page.$eval("#username", (e) => ({ value: (e as HTMLInputElement).value, autocomplete: e.getAttribute("autocomplete"), hidden: (e as HTMLElement).hidden }));
    expect(username).toEqual({ value: "reset-polish@example.com", autocomplete: "username", hidden: true });
    await expectAccessible(page, "reset-password page (new password)");
    // The one 429 above is the browser's log line for the cooldown, asked for on purpose.
    expect(page.problems.filter((p) => !/status of 429/.test(p))).toEqual([]);
  });

  it.each(mail.kinds)("the %s mail renders in a phone-width window: nothing runs out of the frame, no serious accessibility fault", async (kind) => {
    const link = `${suite.s.url}/auth/${kind === "email_verification" ? "verify-email" : "reset-password"}?token=${"A".repeat(43)}&tenantId=public`;
    const rendered = renderMail(templateIn(mail.kind(kind), wordsIn("en")).template, { email: "a.rather.long.address@example.com", link, provider: "GitHub", code: "123456", expiresAt: Date.UTC(2030, 0, 1), validForMs: 3_600_000, websiteUrl: suite.s.url });
    const page = await openTab(suite.browser, "about:", { width: 320, height: 640 });
    await page.setJavaScriptEnabled(false); // as a mail client shows it
    await page.setContent(rendered.html);
    await expectNoHorizontalScroll(page, `${kind} mail`);
    await page.setJavaScriptEnabled(true);
    await expectAccessible(page, `${kind} mail`);
    if (kind.startsWith("passwordless_code")) expect(await page.$eval("body", (b) => b.textContent)).toContain("123456");
    const anchors = await page.$$eval("a", (as) => as.map((a) => ({ href: (a as HTMLAnchorElement).href, right: a.getBoundingClientRect().right })));
    if (kind === "passwordless_code") return expect(anchors).toEqual([]); // the code alone, no link
    const [button, plain] = anchors;
    expect(button.href).toBe(link);
    expect(plain.href).toBe(link);
    expect(plain.right).toBeLessThanOrEqual(320);
    if (kind === "email_verification") await screenshot(page, "mail-verify-phone", { ignore: ["a[style*='break-all']"] }); // the link names this run's port
  });

  it("a screenshot counts as changed only when the picture did", async () => {
    const page = await openTab(suite.browser, "about:", { width: 400, height: 300 });
    const shot = async (html: string) => { await page.setContent(html); return Buffer.from(await page.screenshot({ type: "png" })); };
    const page1 = (time: string, button = "") => `<p style='font:16px sans-serif'>Received <span id=t>${time}</span></p>${button}`;
    const a = await shot(page1("21:49:42"));
    const timeBox = await page.$eval("#t", (e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width + 20, h: r.height }; });
    const newTime = await shot(page1("21:50:17"));
    const newButton = await shot(page1("21:49:42", "<button style='font:16px sans-serif;padding:8px 12px'>Show</button>"));
    expect(await changedPixelShare(suite.browser, a, a)).toBe(0);
    expect(await changedPixelShare(suite.browser, a, newTime)).toBeGreaterThan(0);
    expect(await changedPixelShare(suite.browser, a, newTime, [timeBox])).toBeLessThanOrEqual(SCREENSHOT_TOLERANCE); // only the ignored time moved
    expect(await changedPixelShare(suite.browser, a, newButton, [timeBox])).toBeGreaterThan(SCREENSHOT_TOLERANCE); // a new control is a change
  });
});
