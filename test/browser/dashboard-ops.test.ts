import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "puppeteer-core";
import { addEndpoint } from "../../src/webhooks/endpoints.js";
import { createManualClock } from "../../src/util/clock.js";
import { createTestAdmin, signInToDashboard, type TestAdmin } from "../helpers/dashboard.js";
import { eventually } from "../helpers/mail.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { startReceiver } from "../helpers/webhook-receiver.js";
import { expectAccessible, expectNoHorizontalScroll, launchBrowser, openTab, screenshot, startPagesServer, waitForText, type PagesServer } from "./harness.js";

const ADMIN_KEY = "canaryAdminKeyForTheBrowserTest0123456789abcdef";
const SECRET = "canary-server-secret-for-the-browser-test-0123";

/** The figure before a label in the overview's list (as a person reads it). */
const statOf = (page: Page, label: string) => page.$$eval(".stats li", (lis, l) => {
  const li = lis.find((x) => (x.textContent ?? "").includes(` ${l}`) && !(x.textContent ?? "").includes(`failed ${l}`));
  return Number((li?.querySelector(".value")?.textContent ?? "NaN").replace(/,/g, ""));
}, label);

/** Every operations page: axe, and no sideways scroll at 360 px. */
async function checkPage(browser: Browser, url: string, what: string): Promise<void> {
  const narrow = await openTab(browser, url, { width: 360, height: 740 });
  await narrow.goto(url);
  await expectNoHorizontalScroll(narrow, `${what} at 360 px`);
  await expectAccessible(narrow, `${what} at 360 px`);
  expect(narrow.problems).toEqual([]);
  await narrow.close();
}

describe("dashboard operations pages (Chromium)", () => {
  let s: PagesServer;
  let browser: Browser;
  let admin: TestAdmin;
  let page: Page & { problems: string[] };
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    rx = await startReceiver();
    s = await startPagesServer({ secret: SECRET, adminApiKey: ADMIN_KEY }, { clock: createManualClock(Date.now()) });
    browser = await launchBrowser();
    admin = await createTestAdmin(s.app, { email: "ops@example.com" });
    // A person before the first look, so the overview's cached people count is not zero.
    await postJson(`${s.url}/auth/signup`, credentials("ursula@example.com"));
    page = await openTab(browser, s.url);
    await signInToDashboard(page, s.url, admin);
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await rx?.close();
  });

  it("the overview's numbers move after a sign-in and a failed sign-in", async () => {
    await page.goto(`${s.url}/admin`);
    const before = { ok: await statOf(page, "sign-ins today"), failed: await statOf(page, "failed sign-ins today") };
    expect((await (await postJson(`${s.url}/auth/signin`, credentials("ursula@example.com"))).json()).status).toBe("OK");
    expect((await (await postJson(`${s.url}/auth/signin`, credentials("ursula@example.com", "not her password at all"))).json()).status).toBe("WRONG_CREDENTIALS_ERROR");
    await s.app.ctx.deferred.drain();
    await page.reload();
    expect(await statOf(page, "sign-ins today")).toBe(before.ok + 1);
    expect(await statOf(page, "failed sign-ins today")).toBe(before.failed + 1);
    expect(await page.$$eval("h1", (h) => h.map((x) => x.textContent))).toEqual(["Overview"]);
    expect(await statOf(page, "people")).toBe(1);
    await expectAccessible(page, "overview");
    await screenshot(page, "admin-overview", { ignore: ["time", ".stats .value", "#recent + .table-wrap, #recent ~ *"] });
    await checkPage(browser, `${s.url}/admin`, "overview");
    expect(page.problems).toEqual([]);
  });

  it("the outbox shows a caught mail's state, filtered by state", async () => {
    await postJson(`${s.url}/auth/signup`, credentials("vera@example.com"));
    await postJson(`${s.url}/auth/user/password/reset/token`, { formFields: [{ id: "email", value: "vera@example.com" }] });
    await s.app.ctx.deferred.drain();
    await s.app.mail.flush();
    await page.goto(`${s.url}/admin/outbox`);
    await page.select("#state", "sent");
    await Promise.all([page.waitForNavigation(), page.click("main form.actions button[type=submit]")]);
    expect(new URL(page.url()).search).toBe("?state=sent");
    await eventually(async () => {
      await page.reload();
      return (await page.$eval("main", (m) => m.textContent ?? "")).includes("vera@example.com");
    });
    const row = await page.$$eval("main tbody tr", (trs) => trs.map((tr) => tr.textContent ?? "").find((t) => t.includes("vera@example.com")));
    expect(row).toMatch(/password_reset/);
    expect(row).toMatch(/sent/);
    expect(await page.content()).not.toContain("token=");
    await expectAccessible(page, "outbox");
    await screenshot(page, "admin-outbox", { ignore: ["time", "tbody"] });
    await checkPage(browser, `${s.url}/admin/outbox`, "outbox");
    expect(page.problems).toEqual([]);
  });

  it("the webhooks page shows a delivery to a local receiver, and sends it again", async () => {
    await addEndpoint(s.app.ctx, { url: rx.url, events: ["user.created"] });
    await postJson(`${s.url}/auth/signup`, credentials("wanda@example.com"));
    await s.app.background.flush("webhooks");
    await eventually(async () => rx.received.length === 1);
    await page.goto(`${s.url}/admin/webhooks`);
    await waitForText(page, "#deliveries ~ .table-wrap tbody", /user\.created.*delivered.*HTTP 200/s);
    expect(await page.content()).not.toContain("whsec_");
    await Promise.all([page.waitForNavigation(), page.click("#deliveries ~ .table-wrap tbody button")]);
    await waitForText(page, ".flash", /Queued/);
    await s.app.background.flush("webhooks");
    await eventually(async () => rx.received.length === 2);
    expect(rx.received[1].id).toBe(rx.received[0].id); // a replay keeps the webhook-id
    await expectAccessible(page, "webhooks");
    await checkPage(browser, `${s.url}/admin/webhooks`, "webhooks");
    expect(page.problems).toEqual([]);
  });

  it("rotates the signing key with the keyboard alone; the JWKS then lists the new kid", async () => {
    await page.goto(`${s.url}/admin/keys`);
    const before = await page.$$eval("main tbody th", (ths) => ths.map((t) => t.textContent ?? ""));
    await screenshot(page, "admin-keys", { ignore: ["time", "tbody th"] });
    await expectAccessible(page, "signing keys");
    // Tab to the confirmation field, type the word, Tab to the button, Enter.
    for (let i = 0; i < 40 && (await page.evaluate(() => document.activeElement?.id)) !== "confirm"; i++) await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("confirm");
    await page.keyboard.type("rotate");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Rotate now");
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    await waitForText(page, ".flash", /New signing key d-\d+/);
    const kid = /New signing key (d-\d+)/.exec(await page.$eval(".flash", (f) => f.textContent ?? ""))![1];
    expect(before).not.toContain(kid);
    const jwks = await (await fetch(`${s.url}/auth/jwt/jwks.json`)).json() as { keys: Array<{ kid: string }> };
    expect(jwks.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([kid, ...before]));
    await checkPage(browser, `${s.url}/admin/keys`, "signing keys");
    expect(page.problems).toEqual([]);
  });

  it("shows the configuration with its secrets masked", async () => {
    await page.goto(`${s.url}/admin/config`);
    const html = await page.content();
    expect(html).not.toContain(ADMIN_KEY);
    expect(html).not.toContain(SECRET);
    expect(await page.$eval("main", (m) => m.textContent ?? "")).toContain("********");
    await expectAccessible(page, "configuration");
    await screenshot(page, "admin-config", { ignore: ["tbody td:nth-child(2)"] }); // ports and paths differ per run
    await checkPage(browser, `${s.url}/admin/config`, "configuration");
    expect(page.problems).toEqual([]);
  });
});
