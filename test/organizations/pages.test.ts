import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { organizationsRoom } from "../../src/organizations/room.js";
import type { Config } from "../../src/config/types.js";
import { call, newPerson } from "./helpers.js";
import { shippedWords } from "../helpers/words.js";

/**
 * The organizations' hosted page and its link on the account page, over HTTP: served beside the
 * API without taking any of its paths, with the script and the link the browser test drives.
 */
describe.each(backends)("the organizations page over HTTP ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend, start: true, config: { mode: "development", hostedPages: true, mailCatcher: true, mailCatcherPort: 0, rateLimits: false } });
  });
  afterAll(async () => { await t?.close(); });

  it("serves {websiteBasePath}/my-organizations as a page, while GET /auth/organizations stays the API", async () => {
    const page = await fetch(`${t.url}/auth/my-organizations`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toMatch(/<script type="module" src="\/auth\/_assets\/organizations\.js\?v=[\w-]+"><\/script>/);
    // No fixed list of role names in the page: its script fills the role choices from GET /organizations/{id}/roles.
    expect(html).not.toContain("<datalist");
    const script = await fetch(`${t.url}${/src="([^"]*organizations\.js[^"]*)"/.exec(html)![1]}`);
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('api("PUT", "/active"');

    // The API's list is unchanged: JSON, with the session.
    const ada = await newPerson(t, "ada@pages.test");
    expect((await call(t, "POST", "/organizations", ada, { name: "Pages Co" })).status).toBe(200);
    const mine = await call(t, "GET", "/organizations", ada);
    expect(mine.json).toMatchObject({ status: "OK", organizations: [{ name: "Pages Co", slug: "pages-co", role: "owner", active: true }] });
    expect((await fetch(`${t.url}/auth/organizations`)).status).toBe(401);
  });

  it("the account page links to it, asking account.js to count GET /organizations's list", async () => {
    const html = await (await fetch(`${t.url}/auth/account`)).text();
    expect(html).toContain('<li><a href="/auth/my-organizations" data-count-path="/organizations" data-count-field="organizations">My organizations</a></li>');
  });
});

describe("the organizations room's account link", () => {
  it("is there only while the hosted pages are on, under the website base path, named in the page's words", () => {
    const base = { hostedPages: true, websiteBasePath: "/login" } as Config;
    const en = shippedWords.of("en");
    expect(organizationsRoom.accountPage!.links!(base, en)).toEqual([{ place: "memberships", path: "/login/my-organizations", label: "My organizations", count: { path: "/organizations", field: "organizations" } }]);
    expect(organizationsRoom.accountPage!.links!(base, shippedWords.of("de"))[0].label).toBe("Meine Organisationen");
    expect(organizationsRoom.accountPage!.links!({ ...base, hostedPages: false }, en)).toEqual([]);
    expect(organizationsRoom.pages!({ ...base, hostedPages: false })).toEqual([]);
    expect(organizationsRoom.pages!(base).map((p) => p.path)).toEqual(["/login/accept-invitation", "/login/my-organizations"]);
  });
});
