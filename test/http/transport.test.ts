import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { credentials, decodeFrontToken, postJson, refresh, setCookies, signUp } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

describe.each(backends)("session transport on $name", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend }); });
  afterAll(async () => { await t?.close(); });

  it("sets both cookies exactly as §2 says (same-site website: Lax, http: no Secure, no Domain)", async () => {
    const up = await signUp(t.url, "cookies@example.com", "cookie");
    const c = setCookies(up.res);
    const now = t.clock.now();
    const attrs = (raw: string) => raw.split(";").slice(1).map((s) => s.trim());
    const a = attrs(c.sAccessToken.raw), r = attrs(c.sRefreshToken.raw);
    expect(a).toEqual(expect.arrayContaining(["Path=/", "HttpOnly", "SameSite=Lax"]));
    expect(r).toEqual(expect.arrayContaining([`Path=${t.config.apiBasePath}/session/refresh`, "HttpOnly", "SameSite=Lax"]));
    for (const list of [a, r]) {
      expect(list.some((x) => /^(Secure|Domain=|Max-Age=)/i.test(x))).toBe(false);
    }
    const expires = (list: string[]) => Date.parse(list.find((x) => x.startsWith("Expires="))!.slice(8));
    expect(Math.abs(expires(a) - (now + 31_536_000_000))).toBeLessThan(2000);
    expect(Math.abs(expires(r) - (now + t.config.refreshTokenLifetimeMs))).toBeLessThan(2000);
    expect(up.res.headers.get("access-control-expose-headers")).toBe("front-token");
    expect(up.json.accessToken).toBeUndefined();
  });

  it("front-token decodes with atob and carries uid, ate and the full payload", async () => {
    const up = await signUp(t.url, "front@example.com", "header");
    const raw = up.res.headers.get("front-token")!;
    expect(raw).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const ft = decodeFrontToken(raw);
    const payload = JSON.parse(Buffer.from(up.tokens.access.split(".")[1], "base64url").toString());
    expect(ft).toEqual({ uid: (up.json.user as { id: string }).id, ate: payload.exp * 1000, up: payload });
    expect(up.res.headers.get("access-control-expose-headers")).toBe("front-token, st-access-token, st-refresh-token");
  });

  it("takes the token from Bearer when it is ours, else the cookie; duplicate cookies are refused", async () => {
    const cookie = await signUp(t.url, "both-cookie@example.com", "cookie");
    const header = await signUp(t.url, "both-header@example.com", "header");
    const get = (headers: Record<string, string>) => fetch(`${t.url}/auth/user/email/verify`, { headers });
    // A foreign Bearer token (e.g. another service's opaque token) does not break cookie auth.
    expect((await get({ authorization: "Bearer opaque-foreign-token", cookie: `sAccessToken=${cookie.tokens.access}` })).status).toBe(200);
    const dup = await get({ cookie: `sAccessToken=${cookie.tokens.access}; sAccessToken=${header.tokens.access}` });
    expect(dup.status).toBe(401);
    expect(await dup.json()).toEqual({ message: "try refresh token" });
    const none = await get({});
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ message: "unauthorised" });
    expect(none.headers.get("front-token")).toBeNull(); // no credentials: nothing to clear
  });

  it("refresh without any refresh token is 401 unauthorised and clears every mode", async () => {
    const r = await fetch(`${t.url}/auth/session/refresh`, { method: "POST", headers: { rid: "session" } });
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({ message: "unauthorised" });
    expect(r.headers.get("front-token")).toBe("remove");
    expect(Object.keys(setCookies(r)).sort()).toEqual(["sAccessToken", "sRefreshToken"]);
    expect(r.headers.get("st-access-token")).toBe("");
    const junk = await refresh(t.url, { mode: "header", access: "", refresh: "not-a-token-at-all" });
    expect(junk.status).toBe(401);
  });

  it("answers CORS only for allowlisted origins, with credentials and Vary: Origin", async () => {
    const allowed = t.config.corsOrigins[0];
    const pre = await fetch(`${t.url}/auth/signin`, { method: "OPTIONS", headers: { origin: allowed, "access-control-request-method": "POST", "access-control-request-headers": "content-type, rid" } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe(allowed);
    expect(pre.headers.get("access-control-allow-credentials")).toBe("true");
    expect(pre.headers.get("access-control-allow-headers")).toBe("content-type, rid, fdi-version, anti-csrf, authorization, st-auth-mode, authsvc-auth-mode");
    expect(pre.headers.get("access-control-allow-methods")).toContain("POST");
    for (const origin of ["null", "http://evil.example", `${allowed}.evil.tld`, allowed.replace("localhost", "localhost.evil"), "*"]) {
      const r = await fetch(`${t.url}/auth/signin`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST" } });
      expect(r.headers.get("access-control-allow-origin")).toBeNull();
      expect(r.headers.get("access-control-allow-headers")).toBeNull();
      expect(r.headers.get("vary")).toBe("Origin");
    }
    const get = await fetch(`${t.url}/auth/emailpassword/email/exists?email=x@example.com`, { headers: { origin: allowed } });
    expect(get.headers.get("access-control-allow-origin")).toBe(allowed);
  });

  it("a path h3 would have to sanitize (an accented or a newline escape) is a plain 404, with nothing of h3's own in the log", async () => {
    const warn = vi.spyOn(console, "warn");
    try {
      for (const path of ["/auth/caf%C3%A9", "/auth/a%0Ab", "/caf%C3%A9/x"]) {
        for (const method of ["GET", "DELETE"]) {
          const r = await fetch(`${t.url}${path}`, { method });
          expect([r.status, r.statusText, await r.json()], `${method} ${path}`).toEqual([404, "Not Found", { message: "Not Found" }]);
        }
      }
      // A known path with an unknown method too: 405 with Allow.
      const wrong = await fetch(`${t.url}/auth/signup?x=caf%C3%A9`, { method: "DELETE" });
      expect([wrong.status, wrong.headers.get("allow")]).toEqual([405, "POST"]);
      expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes("[h3]"))).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });

  it("routes by path and method only: 404/405 JSON, tenant prefix, rid ignored", async () => {
    const nf = await fetch(`${t.url}/auth/nothing-here`);
    expect([nf.status, nf.statusText, await nf.json()]).toEqual([404, "Not Found", { message: "Not Found" }]);
    const other = await postJson(`${t.url}/auth/acme/signin`, credentials("x@example.com"));
    expect(other.status).toBe(404);
    const wrong = await fetch(`${t.url}/auth/signup`);
    expect([wrong.status, wrong.headers.get("allow"), await wrong.json()]).toEqual([405, "POST", { message: "Method Not Allowed" }]);
    // GET routes answer HEAD (a load balancer's probe), without a body.
    const head = await fetch(`${t.url}/healthz`, { method: "HEAD" });
    expect([head.status, await head.text()]).toEqual([200, ""]);
    const post = await fetch(`${t.url}/auth/jwt/jwks.json`, { method: "POST" });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
    await signUp(t.url, "tenant@example.com", "header", "/auth/public/signup");
    const pub = await postJson(`${t.url}/auth/public/signin`, credentials("TENANT@example.com"), { rid: "nonsense", "st-auth-mode": "header" });
    expect(await pub.json()).toMatchObject({ status: "OK" });
  });

  it("sends the baseline headers on successes and errors alike", async () => {
    for (const res of [await fetch(`${t.url}/auth/jwt/jwks.json`), await fetch(`${t.url}/auth/nothing-here`), await postJson(`${t.url}/auth/signin`, credentials("nobody@example.com"))]) {
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("x-powered-by")).toBeNull();
    }
  });

  it("email exists: 400 without the param, true only for email/password accounts", async () => {
    for (const p of ["/auth/emailpassword/email/exists", "/auth/signup/email/exists"]) {
      const miss = await fetch(t.url + p);
      expect([miss.status, await miss.json()]).toEqual([400, { message: "Please provide the email as a GET param" }]);
      expect(await (await fetch(`${t.url}${p}?email=cookies@example.com`)).json()).toEqual({ status: "OK", exists: true });
      expect(await (await fetch(`${t.url}${p}?email=%20COOKIES@example.com`)).json()).toEqual({ status: "OK", exists: true });
      expect(await (await fetch(`${t.url}${p}?email=nobody@example.com`)).json()).toEqual({ status: "OK", exists: false });
    }
  });

  it("sign-in: wrong password, unknown email and malformed input get the documented answers", async () => {
    const wrong = await postJson(`${t.url}/auth/signin`, credentials("cookies@example.com", "not the password"));
    const unknown = await postJson(`${t.url}/auth/signin`, credentials("ghost@example.com"));
    for (const r of [wrong, unknown]) {
      expect(await r.json()).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
      expect(r.headers.getSetCookie()).toEqual([]);
      expect(r.headers.get("front-token")).toBeNull();
    }
    const empty = await postJson(`${t.url}/auth/signin`, credentials("", ""));
    expect(await empty.json()).toEqual({ status: "FIELD_ERROR", formFields: [{ id: "password", error: "Field is not optional" }, { id: "email", error: "Field is not optional" }] });
    const dup = await postJson(`${t.url}/auth/signup`, credentials("Cookies@Example.com"));
    expect(await dup.json()).toEqual({ status: "FIELD_ERROR", formFields: [{ id: "email", error: "This email already exists. Please sign in instead." }] });
  });

  it("a user created with `authsvc create-user` signs in over HTTP", async () => {
    const cli = await runCli(["create-user", "--email", "cli-user@example.com", "--password-stdin", "--database", t.config.database], { stdin: "a long cli passphrase\n" });
    expect(cli.code).toBe(0);
    const r = await postJson(`${t.url}/auth/signin`, credentials("cli-user@example.com", "a long cli passphrase"), { "st-auth-mode": "header" });
    expect(await r.json()).toMatchObject({ status: "OK", user: { email: "cli-user@example.com" } });
    expect(r.headers.get("st-access-token")).toMatch(/^ey/);
  });
});

describe.each(backends)("cross-site cookie settings and anti-CSRF on $name", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend, config: { publicUrl: "https://api.example.com", websiteUrl: "https://app.other.dev", corsOrigins: ["https://app.other.dev"], cookieDomain: "api.example.com" } });
  });
  afterAll(async () => { await t?.close(); });

  it("uses SameSite=None; Secure; Domain, and requires the rid header on cookie POSTs and refreshes", async () => {
    const up = await signUp(t.url, "csrf@example.com", "cookie");
    const c = setCookies(up.res);
    for (const k of ["sAccessToken", "sRefreshToken"]) expect(c[k].raw).toMatch(/Domain=api\.example\.com.*HttpOnly; Secure; SameSite=None/);
    const noRid = await fetch(`${t.url}/auth/session/refresh`, { method: "POST", headers: { cookie: `sRefreshToken=${up.tokens.refresh}` } });
    expect([noRid.status, await noRid.json()]).toEqual([401, { message: "unauthorised" }]);
    const out = await fetch(`${t.url}/auth/signout`, { method: "POST", headers: { cookie: `sAccessToken=${up.tokens.access}` } });
    expect([out.status, await out.json()]).toEqual([401, { message: "try refresh token" }]);
    // GET is exempt, header mode is exempt, and with rid the same calls work.
    expect((await fetch(`${t.url}/auth/user/email/verify`, { headers: { cookie: `sAccessToken=${up.tokens.access}` } })).status).toBe(200);
    expect((await refresh(t.url, up.tokens)).status).toBe(200);
    const hdr = await signUp(t.url, "csrf-header@example.com", "header");
    expect((await fetch(`${t.url}/auth/signout`, { method: "POST", headers: { authorization: `Bearer ${hdr.tokens.access}` } })).status).toBe(200);
  });
});
