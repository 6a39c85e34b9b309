import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "puppeteer-core";
import { BIN } from "../helpers/bin.js";
import { freePort } from "../helpers/serve-process.js";
import { expectAccessible, fill, launchBrowser, openTab, screenshot, waitForText, waitVisible } from "./harness.js";

/**
 * The README's quick start, as a new user does it: `npx authsvc serve` in an empty folder (only the
 * ports are chosen, so runs on a shared machine never collide), then everything through the browser,
 * starting from the URLs the banner prints. No setting, no flag, no edit.
 */
describe("quick start: a bare `authsvc serve`, then sign up, verify through the inbox and sign in (Chromium)", () => {
  let dir: string;
  let child: ChildProcess;
  let banner = "";
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "authsvc-quick-start-"));
    const [port, catcherPort] = [await freePort(), await freePort()];
    // The environment of a fresh shell: nothing of authsvc's own.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("AUTHSVC_")));
    child = spawn(process.execPath, [BIN, "serve", "--port", String(port), "--mail-catcher-port", String(catcherPort)], { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] });
    await new Promise<void>((ok, fail) => {
      child.stderr!.on("data", (d) => { banner += d; if (/next: .*\n/.test(banner)) ok(); });
      child.once("exit", () => fail(new Error(`serve exited before its banner:\n${banner}`)));
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (child && child.exitCode === null) {
      const exited = new Promise((ok) => child.once("exit", ok));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("the banner's sign-in page and inbox are all it takes", async () => {
    const signIn = /sign-in: +(\S+)/.exec(banner)?.[1];
    const inboxUrl = /inbox: +(\S+)/.exec(banner)?.[1];
    const next = /next: +sign up at (\S+?),/.exec(banner)?.[1];
    expect(signIn, banner).toMatch(/^http:\/\/localhost:\d+\/auth$/);
    expect(inboxUrl, banner).toBe(`${new URL(signIn!).origin}/_dev/mail`);
    expect(next).toBe(`${signIn}?show=signup`);
    const origin = new URL(signIn!).origin;

    // Sign up through the page the banner names.
    const page = await openTab(browser, origin);
    await page.goto(next!);
    await waitForText(page, "#form-title", /Sign up/);
    await waitVisible(page, "#form");
    await fill(page, "#email", "newcomer@example.com");
    await fill(page, "#password", "my first password");
    await page.click("#submit");
    await waitVisible(page, "#view-check-mail");

    // The mail, in the inbox the banner names; its link points at the hosted page.
    const inbox = await openTab(browser, origin, { width: 1280, height: 1000 });
    await inbox.goto(inboxUrl!);
    await waitForText(inbox, "#list", /newcomer@example\.com/);
    await inbox.click("#list li:first-child button");
    await waitForText(inbox, "#d-action", /Verify email/);
    const link = await inbox.$eval("#d-link", (a) => (a as HTMLAnchorElement).href);
    expect(link.startsWith(`${signIn}/verify-email?token=`)).toBe(true);

    // "Open the link" opens a tab of its own, as a mail client would; it verifies there.
    const opened = new Promise((ok) => browser.once("targetcreated", ok));
    await inbox.click("#d-link");
    const verifyTab = await ((await opened) as { page(): Promise<import("puppeteer-core").Page | null> }).page();
    await verifyTab!.waitForSelector("#view-done", { visible: true, timeout: 15_000 });
    await inbox.bringToFront();
    await waitForText(inbox, "#d-state", /^used$/);

    // Signed out through the hosted sign-out, then signed in with the password: back at the website's start page.
    await page.bringToFront();
    await page.goto(`${signIn}/sign-out`);
    await waitVisible(page, "#sign-out");
    await page.click("#sign-out");
    await page.waitForFunction((o) => location.href === `${o}/`, { timeout: 15_000 }, origin);
    await page.goto(signIn!);
    await waitVisible(page, "#form");
    await waitForText(page, "#form-title", /Sign in/);
    await fill(page, "#email", "newcomer@example.com");
    await fill(page, "#password", "my first password");
    await page.click("#submit");
    await page.waitForFunction((o) => location.href === `${o}/`, { timeout: 15_000 }, origin);
    await waitForText(page, "h1", /authsvc is running/);
    // The development home shows what just happened.
    await waitForText(page, "table", /session\.created/);
    const events = await page.$eval("table", (t) => t.textContent ?? "");
    for (const e of ["user.signed_up", "user.email_verified", "session.revoked"]) expect(events).toContain(e);
    await expectAccessible(page, "development home after the quick start");
    await screenshot(page, "dev-home", { ignore: ["dl.facts dd", "table.events td"] }); // paths, ports, times and ids of this run
    expect(page.problems).toEqual([]);
    expect(inbox.problems).toEqual([]);
  });
});
