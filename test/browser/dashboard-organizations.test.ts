import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "puppeteer-core";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { addDomain } from "../../src/organizations/domains.js";
import { createInvitation } from "../../src/organizations/invitations.js";
import { addMember, createOrganization } from "../../src/organizations/organizations.js";
import { putRole } from "../../src/roles/roles.js";
import { createTestAdmin, signInToDashboard, type TestAdmin } from "../helpers/dashboard.js";
import { expectAccessible, expectNoHorizontalScroll, launchBrowser, openTab, startPagesServer, type PagesServer } from "./harness.js";

/** The dashboard's organizations: the list, and one organization's members, invitations, domains and roles. */
describe("dashboard organizations pages (Chromium)", () => {
  let s: PagesServer;
  let browser: Browser;
  let admin: TestAdmin;
  let page: Page & { problems: string[] };
  let orgId = "";
  beforeAll(async () => {
    s = await startPagesServer({ secret: "canary-server-secret-for-the-browser-test-0123", adminApiKey: "canaryAdminKeyForTheBrowserTest0123456789abcdef" });
    browser = await launchBrowser();
    admin = await createTestAdmin(s.app, { email: "orgs-admin@example.com" });
    const person = async (email: string) => {
      const up = await signUpWithPassword(s.app.ctx, { email, password: "dashboard organizations 1", verified: true });
      if (up.status !== "OK") throw new Error(up.status);
      return up.user.id;
    };
    const ada = await person("ada@acme.example");
    const bob = await person("bob@acme.example");
    await putRole(s.app.ctx, "billing", ["invoices:read"], { organization: true });
    const org = await createOrganization(s.app.ctx, { name: "Acme <Labs>", metadata: { plan: "team" } }, ada, { operator: "cli" });
    orgId = org.id;
    await addMember(s.app.ctx, org.id, bob, "billing", "cli");
    await createInvitation(s.app.ctx, org.id, { operator: "cli" }, { email: "cy@example.com", role: "admin" });
    await addDomain(s.app.ctx, org.id, { domain: "acme.example" }, "cli");
    page = await openTab(browser, s.url);
    await signInToDashboard(page, s.url, admin);
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  const textOf = (selector: string) => page.$eval(selector, (el) => (el as HTMLElement).innerText);

  it("lists organizations; an organization's page shows members, invitations, domains and roles; axe and 360 px", async () => {
    await page.goto(`${s.url}/admin`);
    await page.click('nav a[href="/admin/organizations"]');
    await page.waitForSelector("#orgs");
    expect(await textOf("main")).toMatch(/Acme <Labs>\s+acme-labs/);
    await page.click(`a[href="/admin/organizations/${orgId}"]`);
    await page.waitForSelector("#org-name");
    expect(await textOf("#org-name")).toBe("Acme <Labs>");
    const members = await page.$$eval("#members + * tbody tr", (rows) => rows.map((r) => Array.from(r.children).slice(0, 2).map((c) => (c as HTMLElement).innerText).join(" ")));
    expect(members).toEqual(["ada@acme.example owner", "bob@acme.example billing"]);
    expect(await textOf("#invitations + *")).toMatch(/cy@example\.com\s+admin/);
    expect(await textOf("#domains + *")).toMatch(/acme\.example\s+member\s+cli/);
    const roles = await textOf("#roles + *");
    expect(roles).toMatch(/billing\s+invoices:read/);
    expect(roles).toMatch(/owner\s+invitations:create, invitations:read/);
    // A member's row leads to the person's page.
    await page.click('#members + * a[href^="/admin/users/"]');
    await page.waitForSelector("main h2");
    expect(await textOf("main")).toContain("ada@acme.example");

    for (const path of ["/admin/organizations", `/admin/organizations/${orgId}`]) {
      const narrow = await openTab(browser, s.url, { width: 360, height: 740 });
      await narrow.goto(`${s.url}${path}`);
      await expectNoHorizontalScroll(narrow, `${path} at 360 px`);
      await expectAccessible(narrow, `${path} at 360 px`);
      expect(narrow.problems).toEqual([]);
      await narrow.close();
    }
    const missing = await page.goto(`${s.url}/admin/organizations/nope`);
    expect(missing?.status()).toBe(404);
    expect(await textOf("main")).toContain("No such organization");
    expect(page.problems.filter((p) => !/404/.test(p))).toEqual([]);
  });
});
