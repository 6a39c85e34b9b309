import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listEvents } from "../../src/store/events.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { backends } from "../helpers/backends.js";
import { call, emailOnly, LIMITED, shape, signin, type Answer } from "../helpers/limits.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const PW = "correct horse battery staple";
const resetBody = (token: string) => ({ method: "token", formFields: [{ id: "password", value: "brand new horse staple" }], token });

/** Each per-IP bucket at its documented default (docs/security.md "Rate limits"): the request that gets the first 429. */
const buckets: Array<{ bucket: string; limit: number; window: number; send: (t: TestApp, i: number) => Promise<Answer> }> = [
  { bucket: "signin-ip", limit: 100, window: 900, send: (t, i) => call(t, "/signin", signin(`s${i}@example.com`, "wrong horse battery")) },
  { bucket: "signup-ip", limit: 20, window: 3600, send: (t, i) => call(t, "/signup", signin(`u${i}@example.com`, PW)) },
  { bucket: "email-exists-ip", limit: 100, window: 900, send: (t, i) => call(t, `/emailpassword/email/exists?email=e${i}@example.com`) },
  { bucket: "refresh-ip", limit: 600, window: 900, send: (t) => call(t, "/session/refresh", {}) },
  { bucket: "signinup-ip", limit: 60, window: 900, send: (t) => call(t, "/signinup", { thirdPartyId: "nope", oAuthTokens: {} }) },
  { bucket: "mail-ip", limit: 20, window: 3600, send: (t, i) => call(t, "/user/password/reset/token", emailOnly(`m${i}@example.com`)) },
  { bucket: "token-ip", limit: 50, window: 900, send: (t) => call(t, "/user/password/reset", { method: "token", formFields: [{ id: "password", value: "brand new horse staple" }] }) },
];

describe.each(backends)("per-client-IP buckets on $name (defaults)", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend }); });
  afterAll(async () => { await t.close(); });

  for (const b of buckets) {
    it(`${b.bucket}: ${b.limit} per ${b.window} s, then 429 with Retry-After and one lock event`, async () => {
      for (let i = 0; i < b.limit; i++) {
        const r = await b.send(t, i);
        expect({ i, status: r.status }).not.toEqual({ i, status: 429 });
      }
      const over = await b.send(t, b.limit);
      expect(shape(over)).toEqual({ status: 429, body: LIMITED, retryAfter: b.window });
      // A 429 touches no session (the SDK keeps its tokens, even after a refused refresh).
      expect([over.headers.get("front-token"), over.headers.getSetCookie()]).toEqual([null, []]);
      expect((await b.send(t, b.limit + 1)).status).toBe(429);
      const locks = (await listEvents(t.app.store.db, { type: "rate_limit.locked" })).map((e) => JSON.parse(e.data!)).filter((d) => d.bucket === b.bucket);
      expect(locks).toEqual([expect.objectContaining({ bucket: b.bucket, key: "127.0.0.1" })]);
    });
  }

  it("invalid-token-ip: 20 invalid tokens, then even a valid one is 429 until the hour has passed", async () => {
    const own = await createTestApp({ backend, config: { mode: "development" } });
    try {
      await signUpWithPassword(own.app.ctx, { email: "ada@example.com", password: PW });
      const token = (await call(own, "/user/password/reset/token", emailOnly("ada@example.com"))).body.token as string;
      for (let i = 0; i < 20; i++) expect((await call(own, "/user/password/reset", resetBody(`guess${i}`))).body).toEqual({ status: "RESET_PASSWORD_INVALID_TOKEN_ERROR" });
      const refused = await call(own, "/user/password/reset", resetBody(token));
      expect(shape(refused)).toEqual({ status: 429, body: LIMITED, retryAfter: 3600 });
      // The email verification submission shares the guessing budget.
      expect((await call(own, "/user/email/verify", { method: "token", token: "guess" })).status).toBe(429);
      own.clock.advance(3600_000); // the first link has expired by now too: ask for a new one
      const fresh = (await call(own, "/user/password/reset/token", emailOnly("ada@example.com"))).body.token as string;
      expect((await call(own, "/user/password/reset", resetBody(fresh))).body).toEqual({ status: "OK" });
    } finally { await own.close(); }
  });

  it("a GET with a session never touches the limits table", async () => {
    const own = await createTestApp({ backend });
    try {
      const up = await fetch(`${own.url}/auth/signup`, { method: "POST", headers: { "content-type": "application/json", "st-auth-mode": "header" }, body: JSON.stringify(signin("ada@example.com", PW)) });
      const access = up.headers.get("st-access-token")!;
      await own.app.store.db.deleteFrom("rate_limits").execute();
      for (let i = 0; i < 700; i++) expect((await call(own, "/user/email/verify", undefined, { authorization: `Bearer ${access}` })).status).toBe(200);
      expect(await own.app.store.db.selectFrom("rate_limits").selectAll().execute()).toEqual([]);
    } finally { await own.close(); }
  });
});
