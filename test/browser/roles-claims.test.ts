import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "puppeteer-core";
import { closedPort } from "../helpers/oidc-provider.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { putRole, setUserRole } from "../../src/roles/roles.js";
import { bundleFrontend, WEB_JS_PLACEHOLDERS, startApi, startFrontend, TOKEN_MODES, type ApiServer, type FrontendServer } from "./frontend-app.js";
import { launchBrowser, openTab } from "./harness.js";

/**
 * st-role and st-perm as the real supertokens-web-js claim validators read them
 * (examples/frontend/web-js-roles.ts: UserRoleClaim / PermissionClaim), in both token modes.
 */
declare const app: {
  signIn(email: string, password: string): Promise<boolean>;
  isAdmin(): Promise<boolean>;
  may(permission: string): Promise<boolean>;
  roles(): Promise<string[]>;
  refreshRoles(): Promise<void>;
};

const ENTRY = fileURLToPath(new URL("../../examples/frontend/web-js-roles.ts", import.meta.url));

describe.each(TOKEN_MODES)("roles and permissions through supertokens-web-js in $method mode (Chromium)", ({ method, host }) => {
  let api: ApiServer;
  let web: FrontendServer;
  let browser: Browser;
  let page: Page & { problems: string[] };
  let userId = "";

  beforeAll(async () => {
    const bundle = await bundleFrontend(ENTRY, { placeholders: WEB_JS_PLACEHOLDERS, globalName: "app" });
    const port = await closedPort();
    api = await startApi(`http://${host}:${port}`);
    web = await startFrontend(bundle, { apiDomain: api.url, tokenTransferMethod: method }, { port, host });
    browser = await launchBrowser();
    page = await openTab(browser, web.url);
    const up = await signUpWithPassword(api.app.ctx, { email: `roles-${method}@example.com`, password: "roles and claims 1", verified: true });
    if (up.status !== "OK") throw new Error(up.status);
    userId = up.user.id;
    await putRole(api.app.ctx, "admin", ["users:delete", "users:read"]);
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await api?.close();
  });

  it("the validators fail before the role is given and pass after the next refresh; taking it away fails them again", async () => {
    await page.goto(`${web.url}/`);
    expect(await page.evaluate((e) => app.signIn(e, "roles and claims 1"), `roles-${method}@example.com`)).toBe(true);
    expect(await page.evaluate(() => app.roles())).toEqual([]);
    expect(await page.evaluate(() => app.isAdmin())).toBe(false);
    expect(await page.evaluate(() => app.may("users:read"))).toBe(false);

    expect((await setUserRole(api.app.ctx, userId, "admin")).status).toBe("OK");
    // The token in hand still says what it said; the next refresh carries the role.
    expect(await page.evaluate(() => app.isAdmin())).toBe(false);
    await page.evaluate(() => app.refreshRoles());
    expect(await page.evaluate(() => app.roles())).toEqual(["admin"]);
    expect(await page.evaluate(() => app.isAdmin())).toBe(true);
    expect(await page.evaluate(() => app.may("users:read"))).toBe(true);
    expect(await page.evaluate(() => app.may("billing:write"))).toBe(false);

    await setUserRole(api.app.ctx, userId, "admin", { remove: true });
    await page.evaluate(() => app.refreshRoles());
    expect(await page.evaluate(() => app.isAdmin())).toBe(false);
    expect(await page.evaluate(() => app.may("users:delete"))).toBe(false);
    expect(page.problems).toEqual([]);
  });
});
