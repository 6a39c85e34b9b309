import { afterEach, describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config.js";
import { backends } from "../../helpers/backends.js";
import { runCli } from "../../helpers/cli.js";
import { createTestApp, type TestApp } from "../../helpers/test-app.js";
import { admin, KEY } from "./admin-client.js";

// Issue 17: the admin key must be hard to guess, and guessing it is limited per client IP.
describe("admin key strength", () => {
  it("refuses keys of 32 characters or more that are easy to guess, saying how to make one", () => {
    for (const weak of ["a".repeat(32), "abcdefghijklmnopqrstuvwxyz012345", "0123456789abcdef0123456789abcdef", "passwordpasswordpasswordpassword"]) {
      expect(() => resolveConfig({ env: { AUTHSVC_ADMIN_API_KEY: weak } }), weak).toThrow(/AUTHSVC_ADMIN_API_KEY.*too easy to guess.*authsvc admin-key/);
    }
    expect(() => resolveConfig({ env: { AUTHSVC_ADMIN_API_KEY: "short" } })).toThrow(/at least 32 characters; generate one with `authsvc admin-key`/);
  });

  it("`authsvc admin-key` prints a new random key each time, and the server accepts it", async () => {
    const keys = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const r = await runCli(["admin-key"]);
      expect(r.code).toBe(0);
      const key = r.stdout.trim();
      expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
      expect(resolveConfig({ env: { AUTHSVC_ADMIN_API_KEY: key } }).config.adminApiKey).toBe(key);
      keys.add(key);
    }
    expect(keys.size).toBe(5);
    // `openssl rand -hex 16` (128 bits) passes too.
    expect(resolveConfig({ env: { AUTHSVC_ADMIN_API_KEY: "45e524fd561626a2e4b534aefd8d6742" } }).config.adminApiKey).toBeDefined();
  });
});

describe.each(backends)("failed admin-key attempts per client IP ($name)", (backend) => {
  let t: TestApp | undefined;
  afterEach(async () => { await t?.close(); t = undefined; });

  it("wrong keys fill the bucket; then every admin request from that client is 429 with Retry-After until it empties", async () => {
    t = await createTestApp({ backend, config: { adminApiKey: KEY, limitAdminKeyIp: "3/1h" } });
    // A missing key is a client without configuration, not a guess: never counted.
    for (let i = 0; i < 5; i++) expect((await admin(t, "GET", "/users?limit=1", undefined, null)).status).toBe(401);
    expect((await admin(t, "GET", "/users?limit=1")).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await admin(t, "GET", "/users?limit=1", undefined, `wrong-${i}-${KEY}`)).status).toBe(401);
    const guess = await admin(t, "GET", "/users?limit=1", undefined, `wrong-3-${KEY}`);
    expect(guess.status).toBe(429);
    expect(Number(guess.headers.get("retry-after"))).toBeGreaterThan(3500);
    expect(guess.body).toEqual({ message: expect.any(String) });
    // The right key is refused too: otherwise a correct guess would still get through.
    expect((await admin(t, "GET", "/users?limit=1")).status).toBe(429);
    expect((await admin(t, "POST", "/users", { email: "new@example.com", password: "a fine password 1" })).status).toBe(429);
    expect(await t.app.ctx.store.db.selectFrom("users").select("id").execute()).toEqual([]);
    // The public API is not affected.
    expect((await fetch(`${t.url}/auth/jwt/jwks.json`)).status).toBe(200);
    t.clock.advance(60 * 60 * 1000 + 1000);
    expect((await admin(t, "GET", "/users?limit=1")).status).toBe(200);
  });
});
