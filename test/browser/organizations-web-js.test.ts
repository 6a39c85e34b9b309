import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "puppeteer-core";
import { closedPort } from "../helpers/oidc-provider.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { addMember, createOrganization } from "../../src/organizations/organizations.js";
import { bundleFrontend, WEB_JS_PLACEHOLDERS, startApi, startFrontend, TOKEN_MODES, type ApiServer, type FrontendServer } from "./frontend-app.js";
import { launchBrowser, openTab } from "./harness.js";

/**
 * The organization switcher of docs/organizations.md (examples/frontend/web-js-organizations.ts)
 * with the real supertokens-web-js, in both token modes: after the switch the SDK's
 * getAccessTokenPayloadSecurely returns the new `org` claim without a refresh.
 */
interface OrgClaim { id: string; slug: string; role: string; permissions: string[] }
declare const app: {
  signIn(email: string, password: string): Promise<boolean>;
  activeOrganization(): Promise<OrgClaim | null>;
  switchOrganization(organizationId: string | null): Promise<OrgClaim | null>;
};

const ENTRY = fileURLToPath(new URL("../../examples/frontend/web-js-organizations.ts", import.meta.url));

describe.each(TOKEN_MODES)("switching organizations through supertokens-web-js in $method mode (Chromium)", ({ method, host }) => {
  let api: ApiServer;
  let web: FrontendServer;
  let browser: Browser;
  let page: Page & { problems: string[] };
  const email = `switch-${method}@example.com`;
  const orgs: Array<{ id: string; slug: string }> = [];

  beforeAll(async () => {
    const bundle = await bundleFrontend(ENTRY, { placeholders: WEB_JS_PLACEHOLDERS, globalName: "app" });
    const port = await closedPort();
    api = await startApi(`http://${host}:${port}`);
    web = await startFrontend(bundle, { apiDomain: api.url, tokenTransferMethod: method }, { port, host });
    browser = await launchBrowser();
    page = await openTab(browser, web.url);
    const up = await signUpWithPassword(api.app.ctx, { email, password: "switch organizations 1", verified: true });
    const other = await signUpWithPassword(api.app.ctx, { email: `other-${method}@example.com`, password: "switch organizations 1", verified: true });
    if (up.status !== "OK" || other.status !== "OK") throw new Error("sign-up failed");
    // Owner of one, member of another (created by someone else), and an organization they are not in.
    orgs.push(await createOrganization(api.app.ctx, { name: "Mine" }, up.user.id, { operator: "cli" }));
    const theirs = await createOrganization(api.app.ctx, { name: "Theirs" }, other.user.id, { operator: "cli" });
    await addMember(api.app.ctx, theirs.id, up.user.id, "member", "cli");
    orgs.push(theirs);
    orgs.push(await createOrganization(api.app.ctx, { name: "Elsewhere" }, other.user.id, { operator: "cli" }));
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await api?.close();
  });

  it("the SDK sees the new org claim right after the switch; a switch to an organization not mine is refused and the claim stays", async () => {
    await page.goto(`${web.url}/`);
    expect(await page.evaluate((e) => app.signIn(e, "switch organizations 1"), email)).toBe(true);
    expect(await page.evaluate(() => app.activeOrganization())).toBeNull();

    const mine = await page.evaluate((id) => app.switchOrganization(id), orgs[0].id);
    expect(mine).toMatchObject({ id: orgs[0].id, slug: "mine", role: "owner" });
    expect(mine!.permissions).toContain("org:delete");
    const theirs = await page.evaluate((id) => app.switchOrganization(id), orgs[1].id);
    expect(theirs).toEqual({ id: orgs[1].id, slug: "theirs", role: "member", permissions: ["members:read", "org:read"] });

    const refused = await page.evaluate((id) => app.switchOrganization(id).then(() => "switched", (e: Error) => e.message), orgs[2].id);
    expect(refused).toBe("switching was refused (404)");
    expect(await page.evaluate(() => app.activeOrganization())).toMatchObject({ id: orgs[1].id });

    expect(await page.evaluate(() => app.switchOrganization(null))).toBeNull();
    expect(page.problems.filter((p) => !/404/.test(p))).toEqual([]);
  });
});
