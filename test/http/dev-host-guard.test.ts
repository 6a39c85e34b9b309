import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { signUp } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const ADMIN_KEY = "Zq7vN2xK9pR4mT8wB3cF6hJ1sL5dG0yQ";

/** A request with a chosen Host header (fetch does not let a caller set Host; a rebinding page does). */
function send(base: string, method: string, path: string, host: string, body?: string, headers: Record<string, string> = {}) {
  const url = new URL(base);
  return new Promise<{ status: number; type: string; json: unknown }>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers: { host, ...(body ? { "content-type": "application/json" } : {}), ...headers } }, (res) => {
      let text = "";
      res.on("data", (c) => { text += c; });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), json: text ? JSON.parse(text) : undefined }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const resetBody = JSON.stringify({ formFields: [{ id: "email", value: "victim@example.com" }] });

// Issue 17 point 6: a web page that rebinds its name to 127.0.0.1 sends its own name as Host.
describe.each(backends)("development mode checks Host on every route ($name)", (backend) => {
  let t: TestApp | undefined;
  afterEach(async () => { await t?.close(); t = undefined; });

  it("answers 403 JSON to a foreign Host on API, admin, health and page routes, and changes nothing", async () => {
    t = await createTestApp({ backend, start: true, config: { adminApiKey: ADMIN_KEY, publicUrl: "http://auth.dev.test:3567" } });
    expect((await signUp(t.url, "victim@example.com", "header")).res.status).toBe(200); // Host 127.0.0.1:port
    const tokensBefore = await t.app.ctx.store.db.selectFrom("one_time_tokens").selectAll().execute();
    const outboxBefore = await t.app.ctx.store.db.selectFrom("mail_outbox").selectAll().execute();
    const port = new URL(t.url).port;
    const foreign = [`evil.example:${port}`, "evil.example", `127.0.0.1.evil.example:${port}`, `localhost.evil.example:${port}`, "localhost:80@evil.example"];
    for (const host of foreign) {
      const reset = await send(t.url, "POST", "/auth/user/password/reset/token", host, resetBody, { rid: "emailpassword" });
      expect(reset.status, host).toBe(403);
      expect(reset.type).toMatch(/^application\/json/);
      expect(reset.json).toEqual({ message: expect.stringMatching(/Host is loopback/) });
      for (const [method, path] of [["GET", "/auth/jwt/jwks.json"], ["GET", "/healthz"], ["GET", "/admin/v1/users?limit=1"], ["GET", "/auth/openapi.json"]]) {
        const r = await send(t.url, method, path, host, undefined, { authorization: `Bearer ${ADMIN_KEY}` });
        expect(r.status, `${method} ${path} Host ${host}`).toBe(403);
      }
    }
    expect(await t.app.ctx.store.db.selectFrom("one_time_tokens").selectAll().execute()).toEqual(tokensBefore);
    expect(await t.app.ctx.store.db.selectFrom("mail_outbox").selectAll().execute()).toEqual(outboxBefore);
  });

  it("answers loopback names and the configured public host as before", async () => {
    t = await createTestApp({ backend, start: true, config: { adminApiKey: ADMIN_KEY, publicUrl: "http://auth.dev.test:3567" } });
    const port = new URL(t.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "localhost", `[::1]:${port}`, `app.localhost:${port}`, "auth.dev.test:3567", "AUTH.DEV.TEST:3567"]) {
      expect((await send(t.url, "GET", "/auth/jwt/jwks.json", host)).status, host).toBe(200);
      expect((await send(t.url, "GET", "/admin/v1/users?limit=1", host, undefined, { authorization: `Bearer ${ADMIN_KEY}` })).status, host).toBe(200);
    }
    expect((await signUp(t.url, "victim@example.com", "header")).res.status).toBe(200);
    const reset = await send(t.url, "POST", "/auth/user/password/reset/token", `localhost:${port}`, resetBody, { rid: "emailpassword" });
    expect(reset.status).toBe(200);
    expect(reset.json).toMatchObject({ status: "OK" });
    // The development echo the rebinding page was after is still there for the developer.
    expect(await t.app.ctx.store.db.selectFrom("one_time_tokens").selectAll().execute()).toHaveLength(1);
  });

  it("leaves production alone: a proxy's names reach the API", async () => {
    t = await createTestApp({ backend, start: true, config: { mode: "production", secret: "a-test-secret-that-is-long-enough-32+" } });
    expect((await send(t.url, "GET", "/auth/jwt/jwks.json", "auth.example.com")).status).toBe(200);
    expect((await send(t.url, "GET", "/healthz", "evil.example")).status).toBe(200);
  });
});
