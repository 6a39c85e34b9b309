import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "puppeteer-core";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { addDomain } from "../../src/organizations/domains.js";
import { createOrganization } from "../../src/organizations/organizations.js";
import { setSsoRequired } from "../../src/sso/routing.js";
import { addSamlConnection } from "../../src/sso/saml-connections.js";
import { readIdpMetadata } from "../../src/sso/saml-metadata.js";
import { startSamlIdp, type TestSamlIdp } from "../helpers/saml-idp.js";
import { expectAccessible, expectNoHorizontalScroll, fill, launchBrowser, openTab, screenshot, startPagesServer, waitForText, waitVisible, type PagesServer } from "./harness.js";

/**
 * Routing to an organization's IdP on the hosted sign-in page (src/sso/pages/sso-routing.js), in
 * Chromium with axe: typing an address at the organization's proven domain offers "Sign in with
 * Contoso SSO"; the button runs SP-initiated SAML sign-in with a real IdP implementation (samlify):
 * the browser follows authsvc's HTTP-Redirect to the IdP, whose page (served by this test through
 * request interception, as the IdP's login would) posts the signed response to the ACS, which
 * signs the person in and sends them to the website. Then "SSO required": the page says so and a
 * password sign-in at the domain is refused.
 */
describe("routing to an organization's SSO on the hosted sign-in page (Chromium)", () => {
  let dir: string;
  let idp: TestSamlIdp;
  let s: PagesServer;
  let browser: Browser;
  let org: { id: string };
  let connectionId: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "authsvc-sso-browser-"));
    idp = startSamlIdp(dir);
    s = await startPagesServer();
    browser = await launchBrowser();
    const ctx = s.app.ctx;
    const owner = await signUpWithPassword(ctx, { email: "owner@example.com", password: "correct horse battery staple", verified: true });
    if (owner.status !== "OK") throw new Error(owner.status);
    org = await createOrganization(ctx, { name: "Contoso", slug: "contoso" }, owner.user.id, { personId: owner.user.id });
    await addDomain(ctx, org.id, { domain: "contoso.test", role: "member" }, "test");
    connectionId = (await addSamlConnection(ctx, org.id, { metadata: await readIdpMetadata(idp.metadata), source: "idp.xml", idpInitiated: false, actor: "test" })).id;
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Plays the IdP in the browser: its sign-on URL answers with the auto-posting form of a signed response for `email`. */
  async function actAsIdp(page: Page, email: string): Promise<string[]> {
    const seen: string[] = [];
    const spMetadata = await (await fetch(`${s.url}/auth/saml/${connectionId}/metadata`)).text();
    await page.setRequestInterception(true);
    page.on("request", (request) => {
      const url = request.url();
      if (!url.startsWith("https://idp.contoso.test/sso")) return void request.continue();
      seen.push(url);
      void (async () => {
        const relayState = new URL(url).searchParams.get("RelayState") ?? "";
        const response = await idp.respond(spMetadata, email, { inResponseTo: await idp.requestIdOf(url, spMetadata) });
        const esc = (v: string) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
        await request.respond({
          status: 200, contentType: "text/html",
          body: `<!doctype html><html lang="en"><title>IdP</title><form method="post" action="${s.url}/auth/saml/${connectionId}/acs"><input type="hidden" name="SAMLResponse" value="${esc(response)}"><input type="hidden" name="RelayState" value="${esc(relayState)}"></form><script>document.forms[0].submit()</script></html>`,
        });
      })();
    });
    return seen;
  }

  it("an address at the domain offers its SSO; the button signs in through the IdP (redirect, POST to the ACS) and lands on the website", async () => {
    const page = await openTab(await browser.createBrowserContext(), s.url);
    await page.goto(`${s.url}/auth`);
    await waitVisible(page, "#form");
    // Another domain: nothing offered.
    await fill(page, "#email", "ada@example.com");
    await page.keyboard.press("Tab");
    await new Promise((r) => setTimeout(r, 600));
    expect(await page.$eval("#sso-route", (e) => (e as HTMLElement).hidden)).toBe(true);
    await fill(page, "#email", "Ada@Contoso.test");
    await waitVisible(page, "#sso-route");
    expect(await page.$eval("#sso-start", (e) => e.textContent)).toBe("Sign in with Contoso SSO");
    await waitForText(page, "#sso-note", /Addresses at contoso\.test can sign in through Contoso's single sign-on/);
    await expectAccessible(page, "sign-in page offering SSO");
    await screenshot(page, "sso-routing");
    const seen = await actAsIdp(page, "ada@contoso.test");
    await Promise.all([page.waitForNavigation({ waitUntil: "networkidle0" }), page.click("#sso-start")]);
    await page.waitForFunction((u) => location.href === u, { timeout: 15_000 }, `${s.url}/`);
    expect(seen).toHaveLength(1);
    expect(new URL(seen[0]).searchParams.get("SAMLRequest")).toBeTruthy();
    expect((await page.cookies()).map((c) => c.name)).toContain("sAccessToken");
    const identity = await s.app.store.db.selectFrom("third_party_identities").selectAll().where("email", "=", "ada@contoso.test").executeTakeFirst();
    expect(identity?.provider_id).toBe(`saml-${connectionId}`);
    const member = await s.app.store.db.selectFrom("organization_members").select("role").where("organization_id", "=", org.id).where("user_id", "=", identity!.user_id).executeTakeFirst();
    expect(member?.role).toBe("member");
  });

  it("SSO required: the page says it is the only way, and a password sign-in at the domain is refused", async () => {
    const pat = await signUpWithPassword(s.app.ctx, { email: "pat@contoso.test", password: "correct horse battery staple", verified: true });
    expect(pat.status).toBe("OK");
    await setSsoRequired(s.app.ctx, org.id, true, "test");
    const page = await openTab(await browser.createBrowserContext(), s.url, { width: 360, height: 740 });
    await page.goto(`${s.url}/auth`);
    await waitVisible(page, "#form");
    await fill(page, "#email", "pat@contoso.test");
    await fill(page, "#password", "correct horse battery staple");
    await waitVisible(page, "#sso-route");
    await waitForText(page, "#sso-note", /Addresses at contoso\.test sign in only through Contoso's single sign-on/);
    await page.click("#submit");
    await waitForText(page, "#form-error", /\S/);
    expect(page.url()).toBe(`${s.url}/auth`);
    expect((await page.cookies()).map((c) => c.name)).not.toContain("sAccessToken");
    await expectAccessible(page, "sign-in page with SSO required, after a refused password");
    await expectNoHorizontalScroll(page, "sign-in page with SSO required");
    // The refusal sits above the form; the way in it leaves is below it.
    await page.$eval("#sso-route", (e) => e.scrollIntoView({ block: "end" }));
    await screenshot(page, "sso-required");
    expect(page.problems).toEqual([]);
  });
});
