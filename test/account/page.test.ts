import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/**
 * "My account" is assembled from the rooms' parts (Room.accountPage): the account room's own
 * sections, the links each room declares in its place, the change-password form and the address
 * form's password from the email-password room, and that room's module, which account.js mounts.
 */
describe.each(backends)("the account page assembled from the rooms' parts ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend, config: { hostedPages: true, websiteBasePath: "/me" } }); });
  afterAll(async () => { await t?.close(); });

  it("lists the rooms' pages in their places, then Sign out", async () => {
    const html = await (await fetch(`${t.url}/me/account`)).text();
    const nav = /<nav aria-label="More account pages" id="account-links">[\s\S]*?<\/nav>/.exec(html)![0];
    const links = [...nav.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => `${m[2]} ${m[1]}`);
    expect(links).toEqual([
      "My organizations /me/my-organizations", "Second factor (authenticator app) /me/second-factor",
      "Passkeys /me/passkeys", "Connected apps /me/connected-apps", "Sign out /me/sign-out",
    ]);
  });

  it("puts the change-password form after the logins and the password in the address form; every form posts; the module is served", async () => {
    const html = await (await fetch(`${t.url}/me/account`)).text();
    const order = ["<h2>How you sign in</h2>", '<form id="password-form" method="post" novalidate>', "<h2>Change your email address</h2>", 'id="new-email"', 'id="email-password"', "Send a confirmation link</button>", "<h2>Delete your account</h2>"];
    const at = order.map((s) => html.indexOf(s));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(html).toContain("At least 8 characters.");
    const forms = html.match(/<form[^>]*>/g) ?? [];
    // Password, address, language (the words room's locale choice) and deletion.
    expect(forms.map((f) => / id="([\w-]+)"/.exec(f)?.[1])).toEqual(["password-form", "email-form", "locale-form", "delete-form"]);
    for (const tag of forms) expect(tag).toMatch(/ method="post"/);
    // The protection room's notice module (a breached password at sign-in) is listed too; it acts only when the setting puts its notice on the page.
    expect(html).toContain(' data-account-parts="account-password.js,breached-notice.js"');
    const module = await fetch(`${t.url}/me/_assets/account-password.js`);
    expect(module.status).toBe(200);
    const js = await module.text();
    expect(js).toContain("export function mountAccount");
    expect(js).toContain('"/account/password"');
  });
});
