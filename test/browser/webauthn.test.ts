import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import type { Browser, CDPSession, Page } from "puppeteer-core";
import { closedPort } from "../helpers/oidc-provider.js";
import { bundleFrontend, startApi, startFrontend, type ApiServer, type FrontendServer } from "./frontend-app.js";
import { launchBrowser, openTab, startAuthsvc, waitForText, waitVisible, fill, type PagesServer } from "./harness.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { clickUi, fillUi, readUiText, waitForUiText } from "./prebuilt-ui-driver.js";

const ENTRY = join(import.meta.dirname, "../../examples/frontend/prebuilt-ui-webauthn.tsx");

/**
 * A virtual authenticator in the tab (the DevTools WebAuthn domain): a platform authenticator
 * (ctap2, internal) that keeps resident keys and verifies the user, as a phone or laptop does.
 */
async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await page.createCDPSession();
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, id: authenticatorId };
}

/**
 * The real supertokens-auth-react prebuilt UI with the WebAuthn recipe
 * (examples/frontend/prebuilt-ui-webauthn.tsx) against authsvc in Chromium: passkey sign-up,
 * sign-out and sign-in with a virtual authenticator. The app runs on http://localhost (a secure
 * context; RP ID localhost), the API on 127.0.0.1, so tokens travel in headers.
 */
describe("passkeys in the supertokens-auth-react prebuilt UI (Chromium)", () => {
  let api: ApiServer;
  let web: FrontendServer;
  let browser: Browser;
  let page: Page & { problems: string[] };

  beforeAll(async () => {
    const bundle = await bundleFrontend(ENTRY, { placeholders: { '"http://localhost:3567"': "apiDomain", '"http://localhost:3000"': "websiteDomain", 'tokenTransferMethod: "header"': "tokenTransferMethod" } });
    const port = await closedPort();
    const website = `http://localhost:${port}`;
    api = await startApi(website, { webauthnRpId: "localhost", webauthnOrigins: [website] });
    web = await startFrontend(bundle, { apiDomain: api.url, websiteDomain: website, tokenTransferMethod: "header" }, { port, host: "localhost" });
    browser = await launchBrowser();
    page = await openTab(browser, web.url);
    await addVirtualAuthenticator(page);
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await api?.close();
  });

  it("signs up with a passkey, signs out, and signs back in with it", async () => {
    await page.goto(`${web.url}/auth?show=signup`);
    await fillUi(page, "email", "ada@example.com");
    await clickUi(page, /^continue$/i);
    await waitForUiText(page, /create a passkey/i);
    await clickUi(page, /^continue$/i);
    await page.waitForSelector("#user-id", { timeout: 15_000 });
    const user = await api.app.store.db.selectFrom("users").select("id").where("email", "=", "ada@example.com").executeTakeFirstOrThrow();
    expect(await page.$eval("#user-id", (e) => e.textContent)).toBe(user.id);
    const creds = await api.app.store.db.selectFrom("webauthn_credentials").selectAll().execute();
    expect(creds.map((c) => c.user_id)).toEqual([user.id]);

    await page.click("#sign-out");
    await waitForUiText(page, /continue with passkey/i);
    await clickUi(page, /continue with passkey/i);
    await page.waitForSelector("#user-id", { timeout: 15_000 });
    expect(await page.$eval("#user-id", (e) => e.textContent)).toBe(user.id);
    const used = await api.app.store.db.selectFrom("webauthn_credentials").select("last_used_at").executeTakeFirstOrThrow();
    expect(used.last_used_at).not.toBeNull();
    expect(page.problems).toEqual([]);
  });

  it("shows the server's refusal: an address that already has a passkey", async () => {
    await Promise.all([page.waitForNavigation({ timeout: 15_000 }), page.click("#sign-out")]);
    await page.goto(`${web.url}/auth?show=signup`);
    await fillUi(page, "email", "ada@example.com");
    await clickUi(page, /^continue$/i);
    await waitForUiText(page, /create a passkey/i);
    await clickUi(page, /^continue$/i);
    await waitForUiText(page, /already exists/i).catch(async (e) => { throw new Error(`${e}\n${await readUiText(page)}`); });
  });
});

/**
 * The hosted pages' passkey flows in Chromium, with a virtual authenticator: create a passkey on
 * the sign-in page, manage passkeys (the last one cannot go), sign in with one, and recover the
 * account on a new device through the mailed link. Pages and API at http://localhost:<port>.
 */
describe("passkeys on the hosted pages (Chromium)", () => {
  let s: PagesServer;
  let browser: Browser;
  let page: Page & { problems: string[] };
  let device: { cdp: CDPSession; id: string };
  const email = "bea@example.com";

  beforeAll(async () => {
    s = await startAuthsvc((url) => ({ publicUrl: url, websiteUrl: url, corsOrigins: [url], hostedPages: true, webauthnRpId: "localhost", webauthnOrigins: [url] }), { host: "localhost" });
    browser = await launchBrowser();
    page = await openTab(browser, s.url);
    device = await addVirtualAuthenticator(page);
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  async function signOut() {
    await page.goto(`${s.url}/auth/sign-out`);
    await page.waitForSelector("#sign-out", { visible: true, timeout: 15_000 });
    await page.click("#sign-out");
    await page.waitForFunction(() => !location.pathname.endsWith("/sign-out"), { timeout: 15_000 });
  }
  const passkeyCount = async () => (await s.app.store.db.selectFrom("webauthn_credentials").selectAll().execute()).length;

  it("creates a passkey on the sign-up page, then verifies the address through the mail", async () => {
    await page.goto(`${s.url}/auth?show=signup`);
    await waitVisible(page, "#passkey-sign-up");
    // "Create a passkey" needs the address, so it comes after the email field, not above it.
    expect(await page.$eval("#passkey-sign-up", (b) => b.compareDocumentPosition(document.getElementById("email")!) & Node.DOCUMENT_POSITION_PRECEDING)).toBeTruthy();
    await fill(page, "#email", email);
    await page.click("#passkey-sign-up");
    await waitVisible(page, "#view-check-mail");
    expect(await passkeyCount()).toBe(1);
    const mail = await waitForCaughtMail(s.app, email, { action: "verify-email" });
    await page.goto(mail.link!);
    await waitVisible(page, "#view-done");
  });

  it("lists passkeys, refuses to remove the last one, adds and removes one", async () => {
    await page.goto(`${s.url}/auth/passkeys`);
    await waitVisible(page, "#view-list");
    expect(await page.$$eval("#passkey-list li", (l) => l.length)).toBe(1);
    await page.click("#passkey-list li button");
    await waitForText(page, "#form-error", /last way to sign in/);
    await page.click("#add-passkey");
    await page.waitForFunction(() => document.querySelectorAll("#passkey-list li").length === 2, { timeout: 15_000 });
    expect(await passkeyCount()).toBe(2);
    // Remove the first passkey here, and from the device too (as a person deletes it there).
    const [first] = await s.app.store.db.selectFrom("webauthn_credentials").select("id").orderBy("created_at").orderBy("id").execute();
    const firstShown = await page.$eval("#passkey-list li button", (b) => b.getAttribute("aria-label"));
    await page.click("#passkey-list li button");
    await page.waitForFunction(() => document.querySelectorAll("#passkey-list li").length === 1, { timeout: 15_000 });
    const left = await s.app.store.db.selectFrom("webauthn_credentials").select("id").execute();
    expect(left.map((c) => c.id)).not.toContain(first.id);
    expect(firstShown).toMatch(/^Remove the passkey added /);
    await device.cdp.send("WebAuthn.removeCredential", { authenticatorId: device.id, credentialId: Buffer.from(first.id, "base64url").toString("base64") });
    // "How you sign in" on the account page names the login by its kind's label, with its count.
    await page.goto(`${s.url}/auth/account`);
    await page.waitForFunction(() => document.querySelectorAll("#logins li").length === 1, { timeout: 15_000 });
    expect(await page.$eval("#logins li", (li) => li.textContent)).toMatch(/^Passkeys \(1\): /);
  });

  it("signs out and signs in with the passkey", async () => {
    await signOut();
    await page.goto(`${s.url}/auth`);
    await waitVisible(page, "#passkey-sign-in");
    await Promise.all([page.waitForNavigation({ timeout: 15_000 }), page.click("#passkey-sign-in")]);
    expect(new URL(page.url()).pathname).toBe("/");
    const used = await s.app.store.db.selectFrom("webauthn_credentials").select("last_used_at").executeTakeFirstOrThrow();
    expect(used.last_used_at).not.toBeNull();
  });

  it("recovers the account on a new device through the mailed link", async () => {
    // The old device is gone: a new, empty authenticator takes its place.
    await device.cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: device.id });
    device = await addVirtualAuthenticator(page);
    await signOut();
    await page.goto(`${s.url}/auth`);
    await waitVisible(page, "#lost-passkey a");
    await Promise.all([page.waitForNavigation({ timeout: 15_000 }), page.click("#lost-passkey a")]);
    await waitVisible(page, "#request-form");
    await fill(page, "#email", email);
    await page.click("#request-form button[type=submit]");
    await waitVisible(page, "#view-sent");
    const mail = await waitForCaughtMail(s.app, email, { action: "recover-passkey" });
    await page.goto(mail.link!);
    await waitVisible(page, "#view-new");
    await page.click("#create");
    await waitVisible(page, "#view-done");
    expect(await passkeyCount()).toBe(2);
    await page.goto(`${s.url}/auth`);
    await waitVisible(page, "#passkey-sign-in");
    await Promise.all([page.waitForNavigation({ timeout: 15_000 }), page.click("#passkey-sign-in")]);
    expect(new URL(page.url()).pathname).toBe("/");
    expect(page.problems).toEqual([]);
  });
});
