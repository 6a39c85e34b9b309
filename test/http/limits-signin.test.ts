import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { clearLimits } from "../../src/core/limits-admin.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { listEvents } from "../../src/store/events.js";
import { backends } from "../helpers/backends.js";
import { call, emailOnly, LIMITED, shape, signin } from "../helpers/limits.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const PW = "correct horse battery staple";
const WRONG = "wrong horse battery staple";

// Real defaults: 5 failures free, then waits of 1 s, 2 s, 4 s … (at most 60 s), lock at the 20th for 1 h.
describe.each(backends)("failed sign-ins per address on $name (defaults)", (backend) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ backend, config: { mode: "development" } });
    await signUpWithPassword(t.app.ctx, { email: "ada@example.com", password: PW });
  });
  afterEach(async () => { await t.close(); });

  /** Fails sign-ins for `email` until it is locked, waiting out each delay; returns the answers' statuses. */
  async function failUntilLocked(email: string): Promise<number> {
    let failures = 0;
    for (let i = 0; i < 60; i++) {
      const r = await call(t, "/signin", signin(email, WRONG));
      if (r.status === 200) { failures++; continue; }
      expect(r.status).toBe(429);
      if (r.retryAfter! >= 3600) return failures;
      t.clock.advance(r.retryAfter! * 1000);
    }
    throw new Error("never locked");
  }

  it("answers 5 failures at once, then asks for growing waits; a known and an unknown address get the same answers", async () => {
    const seen: Record<string, unknown[]> = {};
    for (const email of ["ada@example.com", "nobody@example.com"]) {
      seen[email] = [];
      for (let i = 0; i < 5; i++) {
        const r = await call(t, "/signin", signin(email, WRONG));
        expect([r.status, r.body]).toEqual([200, { status: "WRONG_CREDENTIALS_ERROR" }]);
      }
      for (const wait of [1, 2, 4]) {
        const early = await call(t, "/signin", signin(email, WRONG));
        expect(shape(early)).toEqual({ status: 429, body: LIMITED, retryAfter: wait });
        seen[email].push(shape(early));
        t.clock.advance(wait * 1000);
        expect((await call(t, "/signin", signin(email, WRONG))).body).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
      }
    }
    expect(seen["nobody@example.com"]).toEqual(seen["ada@example.com"]);
  });

  it("refuses even the right password while waiting; a success forgets the failures", async () => {
    for (let i = 0; i < 5; i++) await call(t, "/signin", signin("ada@example.com", WRONG));
    // The address is canonicalised: case and spaces do not make a new budget.
    const early = await call(t, "/signin", signin("  ADA@example.com", PW));
    expect(shape(early)).toEqual({ status: 429, body: LIMITED, retryAfter: 1 });
    t.clock.advance(1000);
    expect((await call(t, "/signin", signin("ada@example.com", PW))).body.status).toBe("OK");
    for (let i = 0; i < 5; i++) expect((await call(t, "/signin", signin("ada@example.com", WRONG))).status).toBe(200);
  });

  it("locks at the 20th consecutive failure for 1 h (an event), refuses the right password, and unlocks by expiry", async () => {
    expect(await failUntilLocked("ada@example.com")).toBe(20);
    const locked = await call(t, "/signin", signin("ada@example.com", PW));
    expect(locked).toMatchObject({ status: 429, body: LIMITED });
    expect(locked.retryAfter).toBe(3600);
    const events = await listEvents(t.app.store.db, { type: "rate_limit.locked" });
    expect(events.map((e) => JSON.parse(e.data!))).toEqual([expect.objectContaining({ bucket: "signin-failures", key: "ada@example.com" })]);
    // An unknown address locks at exactly the same point.
    expect(await failUntilLocked("nobody@example.com")).toBe(20);
    const left = (await call(t, "/signin", signin("ada@example.com", PW))).retryAfter!; // the clock moved on meanwhile
    t.clock.advance(left * 1000 - 1000);
    expect((await call(t, "/signin", signin("ada@example.com", PW))).status).toBe(429);
    t.clock.advance(1000);
    expect((await call(t, "/signin", signin("ada@example.com", PW))).body.status).toBe("OK");
  });

  it("a locked account can still reset its password, and the reset lifts the lock", async () => {
    await failUntilLocked("ada@example.com");
    const req = await call(t, "/user/password/reset/token", emailOnly("ada@example.com"));
    expect(req.body.status).toBe("OK");
    const done = await call(t, "/user/password/reset", { method: "token", formFields: [{ id: "password", value: "brand new horse staple" }], token: req.body.token });
    expect(done.body).toEqual({ status: "OK" });
    expect((await call(t, "/signin", signin("ada@example.com", "brand new horse staple"))).body.status).toBe("OK");
  });

  it("`limits clear --email` (core) lifts the lock at once and is an event", async () => {
    await failUntilLocked("ada@example.com");
    expect(await clearLimits(t.app.ctx, { email: "Ada@Example.com" }, "test")).toEqual({ key: "ada@example.com", buckets: ["signin-failures"] });
    expect((await call(t, "/signin", signin("ada@example.com", PW))).body.status).toBe("OK");
    expect((await listEvents(t.app.store.db, { type: "rate_limit.cleared" })).length).toBe(1);
  });

  it("with --no-rate-limits nothing is counted", async () => {
    const off = await createTestApp({ backend, config: { rateLimits: false } });
    try {
      for (let i = 0; i < 25; i++) expect((await call(off, "/signin", signin("ada@example.com", WRONG))).status).toBe(200);
      expect(await off.app.store.db.selectFrom("rate_limits").selectAll().execute()).toEqual([]);
    } finally { await off.close(); }
  });
});
