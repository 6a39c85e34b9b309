import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { backends } from "../helpers/backends.js";
import { credentials, postJson, setCookies } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/** The headers the hosted pages send on every API call (api.js). */
const pageHeaders = (rid: string, cookie?: string): Record<string, string> => ({ "st-auth-mode": "cookie", "fdi-version": "4.0", rid, ...(cookie ? { cookie } : {}) });

/**
 * The refresh-and-return sign-in page and the hosted sign-out, over HTTP: the routes, and the exact
 * calls the pages' scripts make, with the cookies a browser would send to each path.
 */
describe.each(backends)("sessions for server-rendered apps over HTTP ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend, config: { hostedPages: true } });
    await signUpWithPassword(t.app.ctx, { email: "ssr-http@example.com", password: "correct horse battery staple", verified: true });
  });
  afterAll(async () => { await t?.close(); });

  async function signIn(): Promise<{ access: string; refresh: string }> {
    const res = await postJson(`${t.url}/auth/signin`, credentials("ssr-http@example.com"), pageHeaders("emailpassword"));
    expect(res.status).toBe(200);
    const c = setCookies(res);
    return { access: c.sAccessToken.value, refresh: c.sRefreshToken.value };
  }

  it("GET /auth/sign-out only serves the page (strict CSP, never cached): a link or an image on another site cannot sign anyone out", async () => {
    const s = await signIn();
    const page = await fetch(`${t.url}/auth/sign-out?redirectToPath=/`, { headers: { cookie: `sAccessToken=${s.access}` } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.getSetCookie()).toEqual([]);
    expect(await page.text()).toMatch(/<script type="module" src="\/auth\/_assets\/sign-out\.js\?v=[\w-]+"><\/script>/);
    // The session still works: the GET changed nothing.
    const still = await fetch(`${t.url}/auth/user/email/verify`, { headers: pageHeaders("emailverification", `sAccessToken=${s.access}`) });
    expect(await still.json()).toMatchObject({ status: "OK", isVerified: true });
  });

  it("what the sign-in page does with an expired access token: the check says 401, the refresh renews both cookies, the check then passes", async () => {
    const s = await signIn();
    t.clock.advance(16 * 60_000);
    const check = await fetch(`${t.url}/auth/user/email/verify`, { headers: pageHeaders("emailverification", `sAccessToken=${s.access}`) });
    expect(check.status).toBe(401);
    // The browser sends the refresh cookie only to its path; the page's call carries rid, so no anti-CSRF token is needed.
    const renewed = await fetch(`${t.url}/auth/session/refresh`, { method: "POST", headers: pageHeaders("session", `sRefreshToken=${s.refresh}`) });
    expect(renewed.status).toBe(200);
    const c = setCookies(renewed);
    expect(c.sAccessToken.value).not.toBe(s.access);
    expect(c.sRefreshToken.value).not.toBe(s.refresh);
    const again = await fetch(`${t.url}/auth/user/email/verify`, { headers: pageHeaders("emailverification", `sAccessToken=${c.sAccessToken.value}`) });
    expect(await again.json()).toMatchObject({ status: "OK", isVerified: true });
  });

  it("what the sign-out page does: POST /signout revokes the session and clears both cookies; its refresh token is dead after", async () => {
    const s = await signIn();
    const out = await fetch(`${t.url}/auth/signout`, { method: "POST", headers: pageHeaders("session", `sAccessToken=${s.access}`) });
    expect(out.status).toBe(200);
    const cleared = setCookies(out);
    expect(cleared.sAccessToken.value).toBe("");
    expect(cleared.sRefreshToken.value).toBe("");
    expect(cleared.sRefreshToken.raw).toMatch(/Expires=Thu, 01 Jan 1970/);
    const refresh = await fetch(`${t.url}/auth/session/refresh`, { method: "POST", headers: pageHeaders("session", `sRefreshToken=${s.refresh}`) });
    expect(refresh.status).toBe(401);
    // Already signed out: the page's POST gets 401 (nothing to revoke) and the page moves on.
    const twice = await fetch(`${t.url}/auth/signout`, { method: "POST", headers: pageHeaders("session", `sAccessToken=${s.access}`) });
    expect(twice.status).toBe(401);
  });

  it("without hosted pages there is no sign-out page: the API's 404", async () => {
    const off = await createTestApp({ backend });
    try {
      expect((await fetch(`${off.url}/auth/sign-out`)).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
