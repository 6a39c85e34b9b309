import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes } from "../../src/http/routes.js";
import { backends } from "../helpers/backends.js";
import { checkAnswer } from "../helpers/openapi-check.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

describe.each(backends)("OpenAPI description on $name", (backend) => {
  let t: TestApp;
  let doc: { openapi: string; servers: Array<{ url: string }>; paths: Record<string, Record<string, unknown>> };
  beforeAll(async () => {
    t = await createTestApp({ backend });
    const res = await fetch(`${t.url}/auth/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    doc = (await res.json()) as typeof doc;
  });
  afterAll(async () => { await t?.close(); });

  it("is served at {apiBasePath}/openapi.json and is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers[0].url).toBe(t.config.publicUrl);
    const result = await new Validator().validate(doc as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes exactly the routes of the route table, with their methods", () => {
    const fromTable = routes.map((r) => `${r.method} ${r.root ? r.path : t.config.apiBasePath + r.path}`).sort();
    const fromDoc = Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`)).sort();
    expect(fromDoc).toEqual(fromTable);
  });

  it("the check every HTTP test runs catches an answer that drifted from the document", () => {
    expect(checkAnswer("POST", "/auth/signin", 200, "application/json", JSON.stringify({ status: "OK" }))).toEqual([
      expect.stringMatching(/^POST \/auth\/signin → 200: body does not match the document/),
    ]);
    expect(checkAnswer("POST", "/auth/public/signout", 404, "application/json", "{}")).toEqual([
      expect.stringMatching(/status 404 is not described/),
    ]);
    expect(checkAnswer("GET", "/auth/jwt/jwks.json", 200, "application/json", JSON.stringify({ keys: [], extra: 1 }))).toHaveLength(1);
    expect(checkAnswer("GET", "/auth/loginmethods", 200, "application/json", JSON.stringify({
      status: "OK", emailPassword: { enabled: true }, thirdParty: { enabled: false, providers: [] }, passwordless: { enabled: false }, firstFactors: ["emailpassword"],
    }))).toEqual([]);
  });

  it("answers of the public documents and probes match it (checked by the test setup on every fetch)", async () => {
    for (const path of ["/healthz", "/readyz", "/auth/jwt/jwks.json", "/auth/.well-known/openid-configuration", "/auth/loginmethods", "/auth/public/openapi.json"]) {
      const res = await fetch(t.url + path);
      expect(res.status, path).toBe(200);
    }
  });
});
