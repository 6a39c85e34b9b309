import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import type { Browser, CDPSession, Page } from "puppeteer-core";
import { closedPort } from "../helpers/oidc-provider.js";
import { bundleFrontend, startApi, startFrontend, type ApiServer, type FrontendServer } from "./frontend-app.js";
import { launchBrowser, openTab } from "./harness.js";
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
    await page.click("#sign-out").catch(() => {});
    await page.goto(`${web.url}/auth?show=signup`);
    await fillUi(page, "email", "ada@example.com");
    await clickUi(page, /^continue$/i);
    await waitForUiText(page, /create a passkey/i);
    await clickUi(page, /^continue$/i);
    await waitForUiText(page, /already exists/i).catch(async (e) => { throw new Error(`${e}\n${await readUiText(page)}`); });
  });
});
