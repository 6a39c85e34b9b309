import { afterAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { setCookies, signUp } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/**
 * SameSite=auto follows the browsers' notion of a site (scheme + registrable domain from the Public
 * Suffix List): a site-mate website gets Lax cookies, a cross-site one gets None; Secure, or the
 * browser would drop (None) or withhold (Lax on a cross-site fetch) them and no session would work.
 */
const cases: Array<{ api: string; website: string; attrs: string[]; absent: string[] }> = [
  { api: "https://a.github.io", website: "https://b.github.io", attrs: ["Secure", "SameSite=None"], absent: [] },
  { api: "https://auth-app.vercel.app", website: "https://shop-app.vercel.app", attrs: ["Secure", "SameSite=None"], absent: [] },
  // Browsers call localhost and 127.0.0.1 two sites; both are loopback, where Secure works over http.
  { api: "http://127.0.0.1:3567", website: "http://localhost:3000", attrs: ["Secure", "SameSite=None"], absent: [] },
  { api: "https://api.example.co.uk", website: "https://www.example.co.uk", attrs: ["Secure", "SameSite=Lax"], absent: [] },
  { api: "http://localhost:3567", website: "http://localhost:3000", attrs: ["SameSite=Lax"], absent: ["Secure"] },
];

describe.each(backends)("SameSite from the Public Suffix List on $name", (backend) => {
  const apps: TestApp[] = [];
  afterAll(async () => { for (const t of apps) await t.close(); });

  it.each(cases)("API $api with website $website", async ({ api, website, attrs, absent }) => {
    const t = await createTestApp({ backend, config: { publicUrl: api, websiteUrl: website, corsOrigins: [website] } });
    apps.push(t);
    const up = await signUp(t.url, "site@example.com", "cookie");
    expect(up.json.status).toBe("OK");
    for (const name of ["sAccessToken", "sRefreshToken"]) {
      const list = setCookies(up.res)[name].raw.split(";").map((s) => s.trim());
      expect(list).toEqual(expect.arrayContaining(attrs));
      for (const a of absent) expect(list).not.toContain(a);
    }
  });
});
