import { describe, expect, it } from "vitest";
import type { Page } from "puppeteer-core";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { expectAccessible, expectNoHorizontalScroll, fill, openTab, usePagesSuite, waitForText, waitVisible } from "./harness.js";

/** The hosted "My organizations" page (src/organizations/organizations-page.ts) in Chromium at 360 px, with the account page's link. */
describe("the hosted organizations page (Chromium)", () => {
  const suite = usePagesSuite();
  const phone = { width: 360, height: 740 };

  async function signIn(page: Page, email: string, password: string): Promise<void> {
    const up = await signUpWithPassword(suite.s.app.ctx, { email, password, verified: true });
    if (up.status !== "OK") throw new Error(up.status);
    await page.goto(`${suite.s.url}/auth`);
    await waitVisible(page, "#form");
    await fill(page, "#email", email);
    await fill(page, "#password", password);
    await page.click("#submit");
    await page.waitForFunction(() => !location.pathname.startsWith("/auth"), { timeout: 15_000 });
  }
  const check = async (page: Page, what: string) => {
    await expectAccessible(page, what);
    await expectNoHorizontalScroll(page, what);
  };
  /** The org claim the SDKs see: the front token's payload (re-issued by the switch). */
  const claimSlug = (page: Page) => page.evaluate(() => {
    const t = document.cookie.split("; ").find((c) => c.startsWith("sFrontToken="))!.slice("sFrontToken=".length);
    return (JSON.parse(atob(decodeURIComponent(t))) as { up: { org?: { slug: string } } }).up.org?.slug ?? null;
  });
  const row = (page: Page, list: string, text: string) => page.evaluateHandle((l, t) => Array.from(document.querySelectorAll(`${l} > li`)).find((li) => li.textContent!.includes(t))!, list, text);
  async function clickIn(page: Page, list: string, text: string, button: string): Promise<void> {
    const li = await row(page, list, text);
    await (await li.asElement()!.$(button))!.click();
  }

  it("creates, invites through the mail (a new person signs up and accepts), manages the member, and switches the active organization", async () => {
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url, phone);
    await page.goto(`${suite.s.url}/auth/my-organizations`);
    await waitVisible(page, "#view-signed-out");
    await check(page, "organizations page, signed out");
    await signIn(page, "lead@example.com", "organizations page pass 1");

    // The account page links to it, with the count.
    await page.goto(`${suite.s.url}/auth/account`);
    await waitVisible(page, "#view-account");
    await waitForText(page, "#account-links", /My organizations \(0\)/);
    await page.click("#account-links a[href='/auth/my-organizations']");
    await waitVisible(page, "#view-organizations");
    expect(await page.$eval("#orgs-empty", (e) => (e as HTMLElement).hidden)).toBe(false);

    // Create: the slug made from the name is shown; it becomes the active one.
    await page.click("#create-form button[type=submit]");
    await waitForText(page, "#org-name-error", /Enter a name/);
    await fill(page, "#org-name", "Acme Crew");
    await page.click("#create-form button[type=submit]");
    await waitForText(page, "#orgs-status", /Created Acme Crew \(slug: acme-crew\)/);
    await waitForText(page, "#orgs", /Acme Crew \(acme-crew\), your role: owner\s*Active/);
    expect(await claimSlug(page)).toBe("acme-crew");
    await check(page, "organizations page, one organization");

    // Members and invitations; a role that does not exist is refused next to the role field.
    await clickIn(page, "#orgs", "Acme Crew", ".manage-org");
    await waitForText(page, "#members", /lead@example\.com: owner/);
    await fill(page, "#invite-email", "crew@example.com");
    // The role is chosen among those the owner may hand out, not typed: no role that does not exist.
    await page.waitForFunction(() => document.querySelectorAll("#invite-role option").length === 3, { timeout: 15_000 });
    expect(await page.$$eval("#invite-role option", (os) => os.map((o) => [(o as HTMLOptionElement).value, (o as HTMLOptionElement).selected]))).toEqual([["owner", false], ["admin", false], ["member", true]]);
    await page.click("#invite-form button[type=submit]");
    await waitForText(page, "#invite-status", /An invitation was sent to crew@example\.com as member/);
    await waitForText(page, "#invitations", /crew@example\.com as member/);
    await check(page, "organizations page, members and invitations");

    // The mail, in the development inbox.
    const inbox = await openTab(await suite.browser.createBrowserContext(), suite.s.url, phone);
    await inbox.goto(`${suite.s.url}/_dev/mail`);
    await waitForText(inbox, "#list", /crew@example\.com/);
    await clickIn(inbox, "#list", "crew@example.com", "button");
    await waitForText(inbox, "#d-to", /crew@example\.com/);
    const link = await inbox.$eval("#d-link", (a) => (a as HTMLAnchorElement).href);
    expect(link).toMatch(new RegExp(`^${suite.s.url}/auth/accept-invitation\\?token=`));

    // The second person has no account yet: signs up on the hosted page, confirms the address, accepts.
    const crew = await openTab(await suite.browser.createBrowserContext(), suite.s.url, phone);
    await crew.goto(`${suite.s.url}/auth?show=signup`);
    await waitForText(crew, "#form-title", /Sign up/);
    await fill(crew, "#email", "crew@example.com");
    await fill(crew, "#password", "organizations page pass 2");
    await crew.click("#submit");
    await waitVisible(crew, "#view-check-mail");
    await crew.goto((await waitForCaughtMail(suite.s.app, "crew@example.com", { action: "verify-email" })).link!);
    await waitVisible(crew, "#view-done");
    await crew.goto(link);
    await waitVisible(crew, "#view-joined");

    // The first sees them as a member, and changes their role; the last owner cannot step down.
    await page.reload();
    await waitVisible(page, "#view-organizations");
    await clickIn(page, "#orgs", "Acme Crew", ".manage-org");
    await waitForText(page, "#members", /crew@example\.com: member/);
    expect(await page.$eval("#invitations-empty", (e) => (e as HTMLElement).hidden)).toBe(false);
    // A member's new role is chosen, as the invitation's, among the roles the owner may hand out; their role now is chosen.
    const roleChoices = (p: Page, email: string) => p.evaluate((e) => {
      const li = Array.from(document.querySelectorAll("#members > li")).find((l) => l.textContent!.includes(e))!;
      return Array.from(li.querySelectorAll<HTMLOptionElement>(".member-role option")).map((o) => [o.value, o.selected]);
    }, email);
    expect(await roleChoices(page, "crew@example.com")).toEqual([["owner", false], ["admin", false], ["member", true]]);
    expect(await page.$eval("#members .member-role", (e) => e.tagName)).toBe("SELECT");
    const chooseRole = async (p: Page, email: string, role: string) => {
      const select = (await (await row(p, "#members", email)).asElement()!.$(".member-role"))!;
      await select.select(role);
    };
    await chooseRole(page, "crew@example.com", "admin");
    await clickIn(page, "#members", "crew@example.com", ".change-role");
    await waitForText(page, "#members-status", /crew@example\.com is now admin/);
    await waitForText(page, "#members", /crew@example\.com: admin/);
    await chooseRole(page, "lead@example.com", "member");
    await clickIn(page, "#members", "lead@example.com", ".change-role");
    await waitForText(page, "#members", /always keeps one owner: make another member owner first/);
    await check(page, "organizations page, a refusal");

    // The new admin may not act on the owner: 403 in the page's words.
    await crew.goto(`${suite.s.url}/auth/my-organizations`);
    await waitForText(crew, "#orgs", /Acme Crew \(acme-crew\), your role: admin/);
    await clickIn(crew, "#orgs", "Acme Crew", ".manage-org");
    await waitForText(crew, "#members", /lead@example\.com: owner/);
    // An admin is offered only what an admin may hand out; the owner's row still shows their role.
    expect(await roleChoices(crew, "crew@example.com")).toEqual([["admin", true], ["member", false]]);
    expect(await roleChoices(crew, "lead@example.com")).toEqual([["owner", true], ["admin", false], ["member", false]]);
    await clickIn(crew, "#members", "lead@example.com", ".remove-member");
    await waitForText(crew, "#members", /Your role here does not allow that/);
    await check(crew, "organizations page, an admin");

    // A second organization becomes active; switching back re-issues the token with the other claim.
    await fill(page, "#org-name", "Beta Team");
    await page.click("#create-form button[type=submit]");
    await waitForText(page, "#orgs", /Beta Team \(beta-team\), your role: owner\s*Active/);
    expect(await claimSlug(page)).toBe("beta-team");
    await clickIn(page, "#orgs", "Acme Crew", ".switch-org");
    await waitForText(page, "#orgs-status", /Acme Crew is now your active organization/);
    await waitForText(page, "#orgs", /Acme Crew \(acme-crew\), your role: owner\s*Active/);
    expect(await page.$$eval("#orgs .active-org", (b) => b.length)).toBe(1);
    expect(await claimSlug(page)).toBe("acme-crew");
    await check(page, "organizations page, two organizations");

    await page.goto(`${suite.s.url}/auth/account`);
    await waitForText(page, "#account-links", /My organizations \(2\)/);
    // The only failed requests are the two refusals the test asked for (no unknown role can be sent any more).
    const refused = (code: string) => `console: Failed to load resource: the server responded with a status of ${code}`;
    expect(page.problems).toEqual([refused("409 (Conflict)")]);
    expect(crew.problems).toEqual([refused("403 (Forbidden)")]);
    expect(inbox.problems).toEqual([]);
  });
});
