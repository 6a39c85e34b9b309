import { describe, expect, it } from "vitest";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { createInvitation } from "../../src/organizations/invitations.js";
import { createOrganization } from "../../src/organizations/organizations.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { expectAccessible, expectNoHorizontalScroll, fill, openTab, usePagesSuite, waitVisible } from "./harness.js";

/** The hosted invitation page (src/organizations/accept-page.ts) in Chromium, from the mail's link, at 360 px. */
describe("accepting an organization invitation on the hosted page (Chromium)", () => {
  const suite = usePagesSuite();

  it("a new person creates their account on the invitation's page and is in: verified, joined, signed in; the invitation is the one mail", async () => {
    const ctx = suite.s.app.ctx;
    const owner = await signUpWithPassword(ctx, { email: "lead@example.com", password: "organization page pass 3", verified: true });
    if (owner.status !== "OK") throw new Error(owner.status);
    const org = await createOrganization(ctx, { name: "Night Shift" }, owner.user.id, { operator: "test" });
    await createInvitation(ctx, org.id, { operator: "test" }, { email: "newcomer@example.com", role: "member" });
    const link = (await waitForCaughtMail(suite.s.app, "newcomer@example.com", { action: "organization-invitation" })).link!;

    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url, { width: 360, height: 740 });
    await page.goto(link);
    await waitVisible(page, "#view-sign-up");
    expect(await page.$eval("#view-sign-up", (el) => (el as HTMLElement).innerText)).toMatch(/Join Night Shift[\s\S]*invited as member[\s\S]*newcomer@example\.com/);
    await expectAccessible(page, "invitation page, sign-up");
    await expectNoHorizontalScroll(page, "invitation page, sign-up");
    // The server's password policy speaks beside the field.
    await fill(page, "#password", "short");
    await page.click("#sign-up");
    await page.waitForFunction(() => document.getElementById("password-error")!.textContent !== "", { timeout: 15_000 });
    await fill(page, "#password", "a newcomer's long passphrase");
    await page.click("#sign-up");
    await waitVisible(page, "#view-joined");
    expect(await page.$eval("#joined-name", (el) => el.textContent)).toBe("Night Shift");
    // Signed in (the page's own cookies), with the address verified.
    const verified = await page.evaluate(async () => (await (await fetch("/auth/user/email/verify", { headers: { rid: "emailverification" } })).json()) as { isVerified: boolean });
    expect(verified.isVerified).toBe(true);
    const person = await suite.s.app.store.db.selectFrom("organization_members").select("role").where("organization_id", "=", org.id).where("role", "=", "member").execute();
    expect(person).toHaveLength(1);
    // One mail: the invitation; no verification mail follows.
    await new Promise((r) => setTimeout(r, 500));
    expect((await suite.s.app.store.db.selectFrom("mail_outbox").select("kind").where("to_address", "=", "newcomer@example.com").execute()).map((m) => m.kind)).toEqual(["organization_invitation"]);
    expect(page.problems).toEqual([]);
  });

  it("asks a signed-out invitee whose address has an account to sign in, then joins them from the same mailed link", async () => {
    const ctx = suite.s.app.ctx;
    const owner = await signUpWithPassword(ctx, { email: "boss@example.com", password: "organization page pass 1", verified: true });
    if (owner.status !== "OK") throw new Error(owner.status);
    const org = await createOrganization(ctx, { name: "Acme Crew" }, owner.user.id, { operator: "test" });
    await createInvitation(ctx, org.id, { operator: "test" }, { email: "crew@example.com", role: "admin" });
    const link = (await waitForCaughtMail(suite.s.app, "crew@example.com", { action: "organization-invitation" })).link!;
    expect(link.startsWith(`${suite.s.url}/auth/accept-invitation?token=`)).toBe(true);

    const up = await signUpWithPassword(ctx, { email: "crew@example.com", password: "organization page pass 2", verified: true });
    if (up.status !== "OK") throw new Error(up.status);
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url, { width: 360, height: 740 });
    await page.goto(link);
    await waitVisible(page, "#view-signed-out");
    expect(await page.$eval("#view-signed-out", (el) => (el as HTMLElement).innerText)).toContain("(crew@example.com)");
    // The token left the address bar before anything else ran.
    expect(await page.evaluate(() => location.search)).toBe("");
    await expectAccessible(page, "invitation page, signed out");
    await expectNoHorizontalScroll(page, "invitation page, signed out");

    await page.goto(`${suite.s.url}/auth`);
    await waitVisible(page, "#form");
    await fill(page, "#email", "crew@example.com");
    await fill(page, "#password", "organization page pass 2");
    await page.click("#submit");
    await page.waitForFunction(() => !location.pathname.startsWith("/auth"), { timeout: 15_000 });

    await page.goto(link);
    await waitVisible(page, "#view-joined");
    expect(await page.$eval("#joined-name", (el) => el.textContent)).toBe("Acme Crew");
    expect(await page.$eval("#joined-role", (el) => el.textContent)).toBe("admin");
    await expectAccessible(page, "invitation page, joined");
    await expectNoHorizontalScroll(page, "invitation page, joined");
    // The same link again: used.
    await page.goto(link);
    await waitVisible(page, "#view-refused");
    expect(await page.$eval("#refused-why", (el) => el.textContent)).toMatch(/already used/);
    expect(page.problems).toEqual([]);
  });
});
