import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "puppeteer-core";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { addDomain } from "../../src/organizations/domains.js";
import { createOrganization } from "../../src/organizations/organizations.js";
import { createTestAdmin, signInToDashboard, type TestAdmin } from "../helpers/dashboard.js";
import { startSamlIdp, type TestSamlIdp } from "../helpers/saml-idp.js";
import { expectAccessible, expectNoHorizontalScroll, launchBrowser, openTab, screenshot, startPagesServer, type PagesServer } from "./harness.js";

const ADMIN_KEY = "canaryAdminKeyForTheBrowserTest0123456789abcdef";

/**
 * The dashboard's Enterprise SSO section (src/sso/dashboard.ts) in Chromium with axe: an operator
 * adds a SAML connection from pasted IdP metadata (samlify's), sees it listed with what the IdP
 * needs, requires SSO, makes a SCIM token shown once (which then works), and removes the
 * connection; each change is in the audit log under the admin.
 */
describe("dashboard Enterprise SSO section (Chromium)", () => {
  let dir: string;
  let idp: TestSamlIdp;
  let s: PagesServer;
  let browser: Browser;
  let admin: TestAdmin;
  let page: Page & { problems: string[] };
  let orgId = "";
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "authsvc-dashboard-sso-"));
    idp = startSamlIdp(dir);
    s = await startPagesServer({ secret: "canary-server-secret-for-the-browser-test-0123", adminApiKey: ADMIN_KEY });
    browser = await launchBrowser();
    admin = await createTestAdmin(s.app, { email: "sso-admin@example.com" });
    const owner = await signUpWithPassword(s.app.ctx, { email: "owner@contoso.test", password: "dashboard sso 1", verified: true });
    if (owner.status !== "OK") throw new Error(owner.status);
    orgId = (await createOrganization(s.app.ctx, { name: "Contoso", slug: "contoso" }, owner.user.id, { operator: "cli" })).id;
    await addDomain(s.app.ctx, orgId, { domain: "contoso.test" }, "cli");
    page = await openTab(browser, s.url);
    await signInToDashboard(page, s.url, admin);
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const textOf = (selector: string) => page.$eval(selector, (el) => (el as HTMLElement).innerText);
  const submit = (selector: string) => Promise.all([page.waitForNavigation(), page.click(selector)]);

  it("adds a connection from pasted metadata, lists it, requires SSO, makes a SCIM token shown once, removes the connection; audited", async () => {
    await page.goto(`${s.url}/admin`);
    await Promise.all([page.waitForNavigation(), page.click('nav a[href="/admin/sso"]')]);
    expect(await textOf("#sso-connections + *")).toMatch(/No connections\./);
    await page.type("#sso-org", "contoso");
    // Pasting: the whole file at once (typing it would take long).
    await page.$eval("#sso-xml", (el, xml) => { (el as HTMLTextAreaElement).value = xml; }, idp.metadata);
    await submit('form[action="/admin/sso/connections"] button[type=submit]');
    expect(await textOf("main")).toMatch(/Added connection saml-\w+ to Contoso\. Give its IdP the ACS URL http:\/\/127\.0\.0\.1:\d+\/auth\/saml\/\w+\/acs/);
    const rows = await page.$$eval("#sso-connections + * tbody tr", (trs) => trs.map((tr) => (tr as HTMLElement).innerText));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/Contoso\s+saml-\w+\s+https:\/\/idp\.contoso\.test\/metadata\s+http/);
    await page.goto(`${s.url}/admin/sso`); // without the message, whose URLs name this run's port
    await expectAccessible(page, "dashboard Enterprise SSO section");
    await expectNoHorizontalScroll(page, "dashboard Enterprise SSO section");
    await screenshot(page, "admin-sso", { ignore: ["time", ".mono"] });

    await submit(`form[action="/admin/sso/required/${orgId}/on"] button`);
    expect(await textOf("#sso-orgs + *")).toMatch(/Contoso\s+1\s+required/);
    expect((await (await fetch(`${s.url}/auth/sso/discover`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "a@contoso.test" }) })).json()).connection.ssoRequired).toBe(true);

    await submit(`form[action="/admin/sso/scim-token/${orgId}"] button`);
    const token = await textOf("#scim-token");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expectAccessible(page, "dashboard SCIM token shown once");
    expect((await fetch(`${s.url}/scim/v2/Users`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    // Shown once: the section's page does not show it again.
    await page.goto(`${s.url}/admin/sso`);
    expect(await page.content()).not.toContain(token);

    const connectionId = (await page.$eval("#sso-connections + * tbody form", (f) => (f as HTMLFormElement).action)).split("/").at(-2)!;
    await submit("#sso-connections + * tbody form button");
    expect(await textOf("main")).toMatch(new RegExp(`Removed connection ${connectionId} of Contoso`));
    expect(await textOf("#sso-connections + *")).toMatch(/No connections\./);

    const audit = await (await fetch(`${s.url}/admin/v1/audit?limit=50`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } })).json() as Record<string, unknown>;
    const text = JSON.stringify(audit);
    for (const action of ["organization.sso_connection_added", "organization.sso_required_changed", "organization.scim_token_created", "organization.sso_connection_removed"]) expect(text).toContain(action);
    expect(text).toContain(`admin:`);
    expect(text).not.toContain(token);
    expect(page.problems).toEqual([]);
  });
});
