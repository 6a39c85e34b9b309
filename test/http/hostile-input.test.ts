import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countUsers } from "../../src/store/users.js";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const ok = (v: unknown) => ({ formFields: [{ id: "email", value: v }, { id: "password", value: "correct horse battery staple" }] });
const okPw = (v: unknown) => ({ formFields: [{ id: "email", value: "hostile@example.com" }, { id: "password", value: v }] });
const wrongTypes: [string, unknown][] = [["null", null], ["number", 42], ["array", ["a@b.co"]], ["object", { $gt: "" }], ["boolean", true]];

/** Raw bodies (text) with the content type to send; every one must get a 4xx and change nothing. */
function hostileCases(): [string, string, string][] {
  const json = (v: unknown) => JSON.stringify(v);
  const cases: [string, string, string][] = [];
  for (const [n, v] of wrongTypes) {
    cases.push([`email value ${n}`, json(ok(v)), "application/json"]);
    cases.push([`password value ${n}`, json(okPw(v)), "application/json"]);
    cases.push([`formFields ${n}`, json({ formFields: v }), "application/json"]);
    cases.push([`formFields element ${n}`, json({ formFields: [v, v] }), "application/json"]);
  }
  cases.push(
    ["formFields missing", "{}", "application/json"],
    ["formFields a string", json({ formFields: "email" }), "application/json"],
    ["element without value", json({ formFields: [{ id: "email" }] }), "application/json"],
    ["__proto__ at the top", `{"__proto__":{"isAdmin":true},"formFields":${json(ok("proto@example.com").formFields)}}`, "application/json"],
    ["__proto__ nested", `{"formFields":[{"id":"email","value":"p@example.com","__proto__":{"x":1}},{"id":"password","value":"correct horse battery"}]}`, "application/json"],
    ["escaped __proto__", `{"\\u005f_proto__":{"x":1},"formFields":[]}`, "application/json"],
    ["constructor.prototype", `{"constructor":{"prototype":{"x":1}},"formFields":[]}`, "application/json"],
    ["invalid JSON", "{formFields:", "application/json"],
    ["top-level array", json([ok("a@example.com")]), "application/json"],
    ["top-level null", "null", "application/json"],
    ["trailing garbage", json(ok("t@example.com")) + "x", "application/json"],
    ["wrong content type", json(ok("ct@example.com")), "text/plain"],
    ["form encoded", "formFields=x", "application/x-www-form-urlencoded"],
    ["1 MB email string", json(ok("a".repeat(1_048_576) + "@example.com")), "application/json"],
    ["10,000 formFields", json({ formFields: Array.from({ length: 10_000 }, () => ({ id: "email", value: "x@example.com" })) }), "application/json"],
    ["too many formFields", json({ formFields: [...ok("m@example.com").formFields, { id: "x", value: "y" }] }), "application/json"],
  );
  return cases;
}

function send(url: string, body: string, type: string, opts: { chunked?: boolean } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { "content-type": type };
    if (!opts.chunked) headers["content-length"] = Buffer.byteLength(body);
    const req = request(url, { method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (c) => { text += c; });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    if (opts.chunked) {
      for (let i = 0; i < body.length; i += 4096) req.write(body.slice(i, i + 4096));
      req.end();
    } else req.end(body);
  });
}

describe.each(backends)("hostile requests on $name", (backend) => {
  let t: TestApp;
  // Rate limits off: this file sends hundreds of bodies from one address on purpose (test/http/limits-*.test.ts cover the limits).
  beforeAll(async () => { t = await createTestApp({ backend, config: { bodyLimit: 1_048_576, rateLimits: false } }); });
  afterAll(async () => { await t?.close(); });

  for (const path of ["/auth/signup", "/auth/signin"]) {
    it(`${path}: every hostile body gets a 4xx JSON error and no user is created`, async () => {
      const before = await countUsers(t.app.store.db);
      for (const [name, body, type] of hostileCases()) {
        const r = await send(t.url + path, body, type).catch((e) => { throw new Error(`${name}: ${e.message}`); });
        expect({ name, status: r.status >= 400 && r.status < 500 }).toEqual({ name, status: true });
        expect(typeof JSON.parse(r.body).message).toBe("string");
      }
      const chunked = await send(t.url + path, JSON.stringify(ok("c".repeat(2_000_000))), "application/json", { chunked: true }).catch((e) => { throw new Error(`chunked: ${e.message}`); });
      expect(chunked.status).toBe(413);
      expect(await countUsers(t.app.store.db)).toBe(before);
      // The server is unharmed: a normal sign-up still works and no prototype was polluted.
      const fine = await send(`${t.url}/auth/signup`, JSON.stringify(ok(`fine${path.length}@example.com`)), "application/json");
      expect(fine.status).toBe(200);
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    });
  }

  it("10,000 formFields within the size limit are refused with the SDK's message", async () => {
    const body = JSON.stringify({ formFields: Array.from({ length: 10_000 }, () => ({ id: "email", value: "x@example.com" })) });
    const r = await send(`${t.url}/auth/signup`, body, "application/json");
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toEqual({ message: "Are you sending too many formFields?" });
  });
});
