import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listEvents } from "../../src/store/events.js";
import { backends } from "../helpers/backends.js";
import { authHeaders, jwtPayload, postJson, refreshAndRead, setCookies, signUp, type Tokens } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const HOUR = 3_600_000;

describe.each(backends)("session hardening on $name", (backend) => {
  let t: TestApp;
  // Sliding 1 h, absolute 3 h: a session refreshed every 50 minutes still ends 3 h after sign-in.
  beforeAll(async () => { t = await createTestApp({ backend, config: { refreshTokenLifetimeMs: HOUR, sessionMaxLifetimeMs: 3 * HOUR } }); });
  afterAll(async () => { await t?.close(); });

  const verifyStatus = (tokens: Tokens) => fetch(`${t.url}/auth/user/email/verify`, { headers: authHeaders(tokens) });
  const doRefresh = (tokens: Tokens) => refreshAndRead(t.url, tokens);

  it("an access token works until its exp and not one second longer (no leeway for our own tokens)", async () => {
    const up = await signUp(t.url, "leeway@example.com", "header");
    const exp = jwtPayload(up.tokens.access).exp as number;
    t.clock.set(exp * 1000 - 1000);
    expect((await verifyStatus(up.tokens)).status).toBe(200);
    t.clock.set(exp * 1000);
    const late = await verifyStatus(up.tokens);
    expect([late.status, await late.json()]).toEqual([401, { message: "try refresh token" }]);
    // The SDK's answer to that is a refresh, which works: the session itself is alive.
    const r = await doRefresh(up.tokens);
    expect(r.res.status).toBe(200);
    expect((await verifyStatus(r.tokens)).status).toBe(200);
  });

  it("a session refreshed on time ends at the absolute lifetime: 401 unauthorised, tokens cleared, session revoked", async () => {
    const start = t.clock.now();
    const up = await signUp(t.url, "absolute@example.com", "cookie");
    expect(up.res.status).toBe(200);
    let tokens = up.tokens;
    for (let i = 1; i <= 3; i++) {
      t.clock.set(start + i * 50 * 60_000); // 50, 100, 150 minutes: each within the sliding hour
      const r = await doRefresh(tokens);
      expect(r.res.status).toBe(200);
      tokens = r.tokens;
      // The refresh cookie never outlives the absolute cap, so browsers drop it on time too.
      const expires = Date.parse(/Expires=([^;]+)/i.exec(setCookies(r.res).sRefreshToken.raw)![1]);
      expect(expires).toBeLessThanOrEqual(Math.ceil((start + 3 * HOUR) / 1000) * 1000);
    }
    t.clock.set(start + 3 * HOUR + 1000);
    const late = await doRefresh(tokens);
    expect([late.res.status, late.json]).toEqual([401, { message: "unauthorised" }]);
    expect(setCookies(late.res).sRefreshToken.value).toBe("");
    expect(late.res.headers.get("front-token")).toBe("remove");
    const userId = jwtPayload(tokens.access).sub as string;
    const rows = await t.app.store.db.selectFrom("sessions").select(["revoked_at", "revoke_reason"]).where("user_id", "=", userId).execute();
    expect(rows).toEqual([{ revoked_at: start + 3 * HOUR + 1000, revoke_reason: "max_lifetime" }]);
    expect((await listEvents(t.app.store.db, { type: "session.revoked" })).some((e) => e.user_id === userId)).toBe(true);
    // A fresh sign-in starts a new session with a new absolute lifetime.
    const again = await postJson(`${t.url}/auth/signin`, { formFields: [{ id: "email", value: "absolute@example.com" }, { id: "password", value: "correct horse battery staple" }] });
    expect(again.status).toBe(200);
  });

  it("an idle session still ends at the sliding lifetime, well before the absolute one", async () => {
    const start = t.clock.now();
    const up = await signUp(t.url, "idle@example.com", "header");
    t.clock.set(start + HOUR + 1000);
    const r = await doRefresh(up.tokens);
    expect([r.res.status, r.json]).toEqual([401, { message: "unauthorised" }]);
  });
});

describe.each(backends)("token retirement over HTTP on $name", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend }); }); // development mode: the answer carries the token
  afterAll(async () => { await t?.close(); });

  it("a second reset request kills the first link; the newest one works", async () => {
    await signUp(t.url, "twice@example.com", "header");
    const ask = async () => ((await (await postJson(`${t.url}/auth/user/password/reset/token`, { formFields: [{ id: "email", value: "twice@example.com" }] })).json()) as { token: string }).token;
    const first = await ask();
    t.clock.advance(61_000); // past the per-address mail cooldown (docs/security.md "Rate limits")
    const second = await ask();
    const submit = async (token: string) => (await (await postJson(`${t.url}/auth/user/password/reset`, { method: "token", token, formFields: [{ id: "password", value: "a brand new passphrase" }] })).json()) as { status: string };
    expect(await submit(first)).toEqual({ status: "RESET_PASSWORD_INVALID_TOKEN_ERROR" });
    expect(await submit(second)).toEqual({ status: "OK" });
  });
});
