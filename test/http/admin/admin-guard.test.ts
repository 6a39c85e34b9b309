import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../../helpers/backends.js";
import { createTestApp, type TestApp } from "../../helpers/test-app.js";
import { signUpWithPassword } from "../../../src/methods/email-password/accounts.js";
import { describeConfig, resolveConfig } from "../../../src/config.js";
import { admin, KEY, SECRET_SHAPES } from "./admin-client.js";

const PW = "correct horse battery staple";

describe.each(backends)("admin API key guard ($name)", (backend) => {
  let t: TestApp;
  let id = "";
  beforeEach(async () => {
    // Many wrong keys on purpose: the per-IP limit on them (admin-key-hardening.test.ts) is off here.
    t = await createTestApp({ backend, config: { adminApiKey: KEY, limitAdminKeyIp: "off" } });
    const r = await signUpWithPassword(t.app.ctx, { email: "ada@example.com", password: PW });
    if (r.status !== "OK") throw new Error("sign-up failed");
    id = r.user.id;
  });
  afterEach(async () => { await t.close(); });

  // Every route, with a request that succeeds when the key is right.
  const routes = (): Array<[string, string, unknown?]> => [
    ["GET", "/users"],
    ["GET", `/users?email=ada@example.com`],
    ["POST", "/users", { email: "new@example.com", password: PW }],
    ["GET", `/users/${id}`],
    ["PUT", `/users/${id}/verified`, { verified: true }],
    ["PUT", `/users/${id}/password`, { password: "another horse battery staple" }],
    ["POST", `/users/${id}/reset-link`, {}],
    ["GET", `/users/${id}/sessions`],
    ["DELETE", `/users/${id}/sessions`],
    ["DELETE", `/users/${id}`],
  ];

  it("every route answers 401 without the key and with a wrong one, and works with it; nothing changes on 401", async () => {
    for (const [method, path, body] of routes()) {
      const none = await admin(t, method, path, body, null);
      expect(none.status, `${method} ${path}`).toBe(401);
      expect(none.headers.get("www-authenticate")).toBe('Bearer realm="authsvc-admin"');
      expect(none.body.message).toMatch(/Admin API key required/);
      for (const wrong of [KEY.slice(0, -1) + "x", KEY + "x", "short", KEY.toUpperCase()]) {
        const bad = await admin(t, method, path, body, wrong);
        expect(bad.status, `${method} ${path} with a wrong key`).toBe(401);
        expect(bad.headers.get("www-authenticate")).toContain('error="invalid_token"');
      }
      const basic = await admin(t, method, path, body, null, { authorization: `Basic ${Buffer.from(`admin:${KEY}`).toString("base64")}` });
      expect(basic.status).toBe(401);
    }
    // Nothing happened: the user is still there, unverified, with the old password, and no one was created.
    const users = await t.app.store.db.selectFrom("users").select("email").execute();
    expect(users).toEqual([{ email: "ada@example.com" }]);
    for (const [method, path, body] of routes()) {
      const ok = await admin(t, method, path, body);
      expect(ok.status, `${method} ${path}: ${JSON.stringify(ok.body)}`).toBeLessThan(300);
      expect(ok.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(JSON.stringify(ok.body)).not.toMatch(SECRET_SHAPES);
    }
  });

  it("an unknown admin path is 401 without the key (no route discovery) and 404/405 with it", async () => {
    expect((await admin(t, "GET", "/nothing", undefined, null)).status).toBe(401);
    expect((await admin(t, "GET", "/nothing")).status).toBe(404);
    expect((await admin(t, "PATCH", `/users/${id}`, {})).status).toBe(405);
  });

  it("never speaks CORS: a preflight is refused and no response carries CORS headers, even for an allowed origin", async () => {
    const origin = t.config.corsOrigins[0];
    for (const [method, path] of routes()) {
      const pre = await fetch(`${t.url}/admin/v1${path}`, { method: "OPTIONS", headers: { origin, "access-control-request-method": method, "access-control-request-headers": "authorization, content-type" } });
      expect(pre.status, `${method} ${path}`).toBe(403);
      for (const h of pre.headers.keys()) expect(h).not.toMatch(/^access-control-/);
    }
    const get = await admin(t, "GET", "/users", undefined, KEY, { origin });
    expect(get.status).toBe(200);
    for (const h of get.headers.keys()) expect(h).not.toMatch(/^access-control-/);
    // The public API keeps its CORS answer.
    const api = await fetch(`${t.url}/auth/signin`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST" } });
    expect(api.headers.get("access-control-allow-origin")).toBe(origin);
  });

  it("the key is a secret setting: env or file only, at least 32 characters, masked by `config`", () => {
    expect(() => resolveConfig({ env: { AUTHSVC_ADMIN_API_KEY: "too-short" } })).toThrow(/AUTHSVC_ADMIN_API_KEY.*\(hidden\).*at least 32/);
    expect(() => resolveConfig({ env: { AUTHSVC_ADMIN_API_KEY: "with a space 0123456789abcdef0123456789" } })).toThrow(/no spaces/);
    const resolved = resolveConfig({ env: { AUTHSVC_ADMIN_API_KEY: KEY } });
    expect(resolved.config.adminApiKey).toBe(KEY);
    expect(describeConfig(resolved).find((s) => s.key === "adminApiKey")).toMatchObject({ value: "********", source: "env", flag: undefined });
    expect(resolveConfig({ flags: { adminApiKey: "x".repeat(40) }, env: {} }).config.adminApiKey).toBeUndefined();
  });
});

describe.each(backends)("admin API switched off ($name)", (backend) => {
  it("without AUTHSVC_ADMIN_API_KEY every /admin path is 404, with or without a key", async () => {
    const t = await createTestApp({ backend });
    try {
      for (const key of [null, KEY, ""]) {
        const r = await admin(t, "GET", "/users", undefined, key);
        expect(r).toMatchObject({ status: 404, body: { message: "Not Found" } });
        expect(r.headers.get("access-control-allow-origin")).toBeNull();
      }
    } finally {
      await t.close();
    }
  });
});
