import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { createClient } from "../../src/oauth-provider/clients.js";
import { createInvitation } from "../../src/organizations/invitations.js";
import { createOrganization } from "../../src/organizations/organizations.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { expectAccessible, expectNoHorizontalScroll, fill, openTab, usePagesSuite, waitForText, waitVisible } from "./harness.js";

/**
 * Issue 48 in Chromium at 360 px: the invitation page, My account and the OAuth consent page in
 * German and Arabic (right to left). A newcomer opens the invitation in their language, creates
 * their account there, lands on My account in the same language, then an app asks for consent:
 * axe finds nothing, nothing scrolls sideways, and the scripts speak the page's language too.
 */
describe("the invitation, account and consent pages in German and Arabic (Chromium, 360 px)", () => {
  const suite = usePagesSuite();
  const expected = {
    de: {
      dir: "ltr", join: "Team de beitreten", joined: "Du bist Team de beigetreten", account: "Mein Konto", sessions: "Wo du angemeldet bist",
      thisDevice: /\(dieses Gerät\)$/, login: /^Passwort: new-de@example\.com, hinzugefügt am/, consent: "Notizen erlauben?", scope: "Deine E-Mail-Adresse",
    },
    ar: {
      dir: "rtl", join: "الانضمام إلى Team ar", joined: "انضممت إلى Team ar", account: "حسابي", sessions: "أين سجّلت الدخول",
      thisDevice: /\(هذا الجهاز\)$/, login: /^كلمة المرور: new-ar@example\.com، أُضيفت في/, consent: "هل تسمح لـ Notizen؟", scope: "عنوان بريدك الإلكتروني",
    },
  } as const;

  it.each(Object.keys(expected) as Array<keyof typeof expected>)("%s", async (lang) => {
    const want = expected[lang];
    const ctx = suite.s.app.ctx;
    const owner = await signUpWithPassword(ctx, { email: `owner-${lang}@example.com`, password: "words pages pass 1", verified: true });
    if (owner.status !== "OK") throw new Error(owner.status);
    const org = await createOrganization(ctx, { name: `Team ${lang}` }, owner.user.id, { operator: "test" });
    await createInvitation(ctx, org.id, { operator: "test" }, { email: `new-${lang}@example.com`, role: "member" });
    const link = (await waitForCaughtMail(suite.s.app, `new-${lang}@example.com`, { action: "organization-invitation" })).link!;

    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url, { width: 360, height: 740 });
    const text = (sel: string) => page.$eval(sel, (e) => e.textContent?.trim());
    const layout = async (what: string) => {
      expect(await page.$eval("html", (e) => [e.lang, e.dir]), what).toEqual([lang, want.dir]);
      await expectAccessible(page, `${what} (${lang})`);
      await expectNoHorizontalScroll(page, `${what} (${lang})`);
      if (want.dir === "rtl") {
        // Right to left: the heading starts at the card's right edge.
        const gap = await page.evaluate(() => document.querySelector("main")!.getBoundingClientRect().right - Array.from(document.querySelectorAll("main h1")).find((h) => (h as HTMLElement).offsetParent)!.getBoundingClientRect().right);
        expect(gap, what).toBeLessThan(40);
      }
    };

    // The invitation page, in the language the link is opened in.
    await page.goto(`${link}&lang=${lang}`);
    await waitVisible(page, "#view-sign-up");
    expect(await text("#sign-up-title")).toBe(want.join);
    await layout("invitation page");
    await fill(page, "#password", `a ${lang} newcomer's long passphrase`);
    await page.click("#sign-up");
    await waitVisible(page, "#view-joined");
    expect(await text("#joined-title")).toBe(want.joined);
    await layout("invitation page, joined");

    // My account, in the same language (the cookie keeps it); the script's lines too.
    await page.goto(`${suite.s.url}/auth/account`);
    await waitVisible(page, "#view-account");
    expect(await text("#account-title")).toBe(want.account);
    expect(await page.$$eval("#view-account h2", (hs) => hs.map((h) => h.textContent))).toContain(want.sessions);
    await waitForText(page, "#sessions", want.thisDevice);
    await page.waitForFunction(() => document.querySelectorAll("#logins li").length > 0, { timeout: 15_000 });
    expect(await text("#logins li")).toMatch(want.login);
    await layout("account page");

    // An app asks for consent: the interaction page, in the same language.
    const clientId = (await createClient(ctx, { name: "Notizen", redirectUris: ["https://notes.example.com/callback"] }, "test")).clientId;
    const authorize = new URL(`${suite.s.url}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      client_id: clientId, response_type: "code", redirect_uri: "https://notes.example.com/callback", scope: "openid email", state: "s1",
      code_challenge: createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url"), code_challenge_method: "S256",
    })) authorize.searchParams.set(k, v);
    await page.goto(authorize.toString());
    await waitVisible(page, "#allow");
    expect(await text("#consent-title")).toBe(want.consent);
    expect(await page.$$eval("main li", (lis) => lis.map((li) => li.textContent))).toContain(want.scope);
    await layout("consent page");
    expect(page.problems).toEqual([]);
  });
});
