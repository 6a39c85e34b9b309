import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyUserEmail } from "../../src/core/users.js";
import { backends } from "../helpers/backends.js";
import { authHeaders, decodeFrontToken, jwtPayload, modes, readTokens, refresh, refreshAndRead, setCookies, signUp, type Mode, type Tokens } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

describe.each(backends)("session lifecycle on $name", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend }); });
  afterAll(async () => { await t?.close(); });

  const verifyStatus = (tokens: Tokens) => fetch(`${t.url}/auth/user/email/verify`, { headers: authHeaders(tokens) });
  const doRefresh = (tokens: Tokens) => refreshAndRead(t.url, tokens);

  describe.each(modes)("%s mode", (mode: Mode) => {
    it("sign-up → authenticated GET → refresh → grace reuse → theft after the window kills the newest token", async () => {
      const up = await signUp(t.url, `flow-${mode}@example.com`, mode);
      expect(up.res.status).toBe(200);
      expect(up.json.status).toBe("OK");
      expect(up.tokens.access).toMatch(/^ey/);
      expect(up.tokens.refresh.length).toBeGreaterThanOrEqual(43);
      expect(up.res.headers.get("cache-control")).toBe("no-store");
      // One way only (security-bar 54).
      if (mode !== "cookie") expect(up.res.headers.getSetCookie()).toEqual([]);
      if (mode !== "header") expect(up.res.headers.get("st-access-token")).toBeNull();
      if (mode !== "body") expect(up.json.accessToken).toBeUndefined();
      if (mode === "body") expect(up.json.accessTokenExpiresAt).toBe(decodeFrontToken(up.res.headers.get("front-token")!).ate);

      const status = await verifyStatus(up.tokens);
      expect(status.status).toBe(200);
      expect(await status.json()).toEqual({ status: "OK", isVerified: false });
      expect(status.headers.get("front-token")).toBeNull(); // claim unchanged: nothing re-signed

      const r1 = await doRefresh(up.tokens);
      expect(r1.res.status).toBe(200);
      if (mode !== "body") expect(r1.json).toEqual({});
      // The SDK throws on a refresh without front-token; it must describe the new access token.
      expect(decodeFrontToken(r1.res.headers.get("front-token")!).up).toEqual(jwtPayload(r1.tokens.access));
      expect(r1.tokens.refresh).not.toBe(up.tokens.refresh);
      expect(r1.tokens.access).not.toBe(up.tokens.access);
      expect((await verifyStatus(r1.tokens)).status).toBe(200);

      // Inside the grace window the previous token still works (a second tab, a lost response).
      t.clock.advance(t.config.refreshGraceWindowMs - 1000);
      const r2 = await doRefresh(up.tokens);
      expect(r2.res.status).toBe(200);
      expect((await verifyStatus(r2.tokens)).status).toBe(200);

      // After the window, reuse is theft: 401, tokens cleared, the whole session revoked.
      t.clock.advance(2000);
      const theft = await doRefresh(up.tokens);
      expect(theft.res.status).toBe(401);
      expect(theft.json).toEqual({ message: "token theft detected" });
      expect(theft.res.headers.get("front-token")).toBe("remove");
      if (mode === "cookie") expect(setCookies(theft.res).sRefreshToken.raw).toContain("Expires=Thu, 01 Jan 1970 00:00:00 GMT");
      for (const newest of [r1.tokens, r2.tokens]) {
        const dead = await doRefresh(newest);
        expect(dead.res.status).toBe(401);
        expect(dead.json).toEqual({ message: "unauthorised" });
        const s = await verifyStatus(newest); // endpoint 3 checks the session row
        expect(s.status).toBe(401);
        expect(await s.json()).toEqual({ message: "unauthorised" });
      }
    });

    it("sign-out revokes the session and clears tokens in the mode used", async () => {
      const up = await signUp(t.url, `signout-${mode}@example.com`, mode);
      const out = await fetch(`${t.url}/auth/signout`, { method: "POST", headers: authHeaders(up.tokens) });
      expect(out.status).toBe(200);
      expect(await out.json()).toEqual({ status: "OK" });
      expect(out.headers.get("front-token")).toBe("remove");
      if (mode === "cookie") {
        const c = setCookies(out);
        expect(c.sAccessToken.value).toBe("");
        expect(c.sRefreshToken.raw).toMatch(/Path=\/auth\/session\/refresh/);
      }
      if (mode === "header") expect(out.headers.get("st-access-token")).toBe("");
      const after = await doRefresh(up.tokens);
      expect(after.res.status).toBe(401);
      expect(after.json).toEqual({ message: "unauthorised" });
      expect((await verifyStatus(up.tokens)).status).toBe(401);
    });

    it("an expired access token gets 'try refresh token'; the refresh then works", async () => {
      const up = await signUp(t.url, `expired-${mode}@example.com`, mode);
      t.clock.advance(t.config.accessTokenLifetimeMs + 61_000);
      const s = await verifyStatus(up.tokens);
      expect(s.status).toBe(401);
      expect(await s.json()).toEqual({ message: "try refresh token" });
      expect(s.headers.get("front-token")).toBeNull(); // try-refresh changes no tokens
      const r = await doRefresh(up.tokens);
      expect(r.res.status).toBe(200);
      expect((await verifyStatus(r.tokens)).status).toBe(200);
    });

    it("re-issues the access token with st-ev when the stored state changed, in the same mode", async () => {
      const up = await signUp(t.url, `claim-${mode}@example.com`, mode);
      await verifyUserEmail(t.app.ctx, (up.json.user as { id: string }).id);
      const s = await verifyStatus(up.tokens);
      const json = (await s.json()) as Record<string, unknown>;
      expect(json.status).toBe("OK");
      expect(json.isVerified).toBe(true);
      const front = decodeFrontToken(s.headers.get("front-token")!);
      expect(front.up["st-ev"]).toMatchObject({ v: true });
      const fresh = readTokens(s, mode, json, up.tokens);
      expect(fresh.access).not.toBe(up.tokens.access);
      if (mode === "cookie") expect(setCookies(s).sRefreshToken).toBeUndefined(); // only the access token changes
      const again = await verifyStatus(fresh);
      expect(await again.json()).toEqual({ status: "OK", isVerified: true });
      expect(again.headers.get("front-token")).toBeNull();
    });
  });

  it("parallel refreshes with one token (two tabs) all succeed and every resulting token works", async () => {
    const up = await signUp(t.url, "tabs@example.com", "header");
    const results = await Promise.all(Array.from({ length: 8 }, () => doRefresh(up.tokens)));
    expect(results.map((r) => r.res.status)).toEqual(Array(8).fill(200));
    for (const r of results) expect((await verifyStatus(r.tokens)).status).toBe(200);
    // Whichever token the client keeps can refresh again.
    const last = results[results.length - 1];
    expect((await doRefresh(last.tokens)).res.status).toBe(200);
    // A sibling displaced by that use and presented after the grace window is theft (orphaned branch).
    t.clock.advance(t.config.refreshGraceWindowMs + 1000);
    const orphan = await doRefresh(results[0].tokens);
    expect([orphan.res.status, orphan.json]).toEqual([401, { message: "token theft detected" }]);
  });
});
