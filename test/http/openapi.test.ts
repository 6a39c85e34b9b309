import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PREFIX } from "../../src/http/admin/route.js";
import { sessionNeedOf } from "../../src/http/guard.js";
import type { SessionNeed } from "../../src/http/route.js";
import { tables } from "../../src/rooms.js";
import { backends } from "../helpers/backends.js";
import { checkAnswer } from "../helpers/openapi-check.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { KEY } from "./admin/admin-client.js";

const { routes, adminRoutes } = tables;

describe.each(backends)("OpenAPI description on $name", (backend) => {
  let t: TestApp;
  let doc: { openapi: string; servers: Array<{ url: string }>; paths: Record<string, Record<string, unknown>> };
  beforeAll(async () => {
    t = await createTestApp({ backend, config: { adminApiKey: KEY } });
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

  const described = (keep: (path: string) => boolean) =>
    Object.entries(doc.paths).filter(([p]) => keep(p)).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`)).sort();
  const isAdmin = (p: string) => p.startsWith(`${ADMIN_PREFIX}/`);

  it("describes exactly the routes of the route table, with their methods", () => {
    // h3's /organizations/:id is OpenAPI's /organizations/{id}.
    const fromTable = routes.map((r) => `${r.method} ${r.root ? r.path : t.config.apiBasePath + r.path}`.replace(/:(\w+)/g, "{$1}")).sort();
    expect(described((p) => !isAdmin(p))).toEqual(fromTable);
  });

  it("says who may call each route as its table declares (the guard the kernel applies): security schemes from Route.session", () => {
    const session = [{ AccessToken: [] }, { AccessCookie: [] }];
    const expected: Record<SessionNeed, (security: unknown) => boolean> = {
      // No session: none asked for (or explicitly optional).
      none: (s) => s === undefined || JSON.stringify(s) === "[{}]",
      // A session only when the request asks to add a login to it: the document does not require one.
      optional: (s) => s === undefined || (Array.isArray(s) && s.some((x) => JSON.stringify(x) === "{}")),
      "if sent": (s) => JSON.stringify(s) === JSON.stringify([...session, {}]),
      required: (s) => JSON.stringify(s) === JSON.stringify(session),
      "required+db": (s) => JSON.stringify(s) === JSON.stringify(session),
      refresh: (s) => JSON.stringify(s) === JSON.stringify([{ RefreshToken: [] }, { RefreshCookie: [] }]),
    };
    const wrong = routes.flatMap((r) => {
      const path = `${r.root ? r.path : t.config.apiBasePath + r.path}`.replace(/:(\w+)/g, "{$1}");
      const op = doc.paths[path]?.[r.method.toLowerCase()] as { security?: unknown } | undefined;
      const need = sessionNeedOf(r, t.config);
      return expected[need](op?.security) ? [] : [`${r.method} ${path}: ${need}, documented ${JSON.stringify(op?.security)}`];
    });
    expect(wrong).toEqual([]);
    // Both kinds are in the table, so the check is not empty.
    expect(new Set(routes.map((r) => sessionNeedOf(r, t.config)))).toEqual(new Set(["none", "optional", "required", "required+db", "refresh"]));
  });

  it("describes no admin API when it is off (the document is public): no paths, tag, key scheme or mention", async () => {
    const off = await createTestApp({ backend });
    try {
      const res = await fetch(`${off.url}/auth/openapi.json`);
      expect(res.status).toBe(200);
      const text = await res.text();
      const plain = JSON.parse(text) as typeof doc & { tags: Array<{ name: string }>; components: { securitySchemes: Record<string, unknown> } };
      expect(Object.keys(plain.paths).filter(isAdmin)).toEqual([]);
      expect(plain.tags.map((x) => x.name)).not.toContain("admin");
      expect(Object.keys(plain.components.securitySchemes)).not.toContain("AdminKey");
      expect(text).not.toMatch(/\/admin|AUTHSVC_ADMIN_API_KEY/);
      // The public part is the same document as with the admin API on.
      expect(plain.paths).toEqual(Object.fromEntries(Object.entries(doc.paths).filter(([p]) => !isAdmin(p))));
    } finally {
      await off.close();
    }
  });

  it("describes exactly the routes of the admin route table, each behind the admin key with its 401 challenge", () => {
    // h3's /users/:id is OpenAPI's /users/{id}.
    const fromTable = adminRoutes.map((r) => `${r.method} ${ADMIN_PREFIX}${r.path.replace(/:(\w+)/g, "{$1}")}`).sort();
    expect(described(isAdmin)).toEqual(fromTable);
    const schemes = (doc as unknown as { components: { securitySchemes: Record<string, unknown> } }).components.securitySchemes;
    expect(schemes.AdminKey).toMatchObject({ type: "http", scheme: "bearer" });
    for (const [p, item] of Object.entries(doc.paths).filter(([p]) => isAdmin(p))) {
      for (const [m, op] of Object.entries(item as Record<string, { security: unknown; parameters?: Array<{ name: string; in: string }>; responses: Record<string, { headers?: Record<string, unknown> }> }>)) {
        expect(op.security, `${m} ${p}`).toEqual([{ AdminKey: [] }]);
        expect(Object.keys(op.responses[401].headers ?? {}), `${m} ${p}`).toEqual(["www-authenticate"]);
        const inPath = [...p.matchAll(/\{(\w+)\}/g)].map((x) => x[1]);
        expect(op.parameters?.filter((x) => x.in === "path").map((x) => x.name) ?? [], `${m} ${p}`).toEqual(inPath);
      }
    }
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
      status: "OK", emailPassword: { enabled: true }, thirdParty: { enabled: false, providers: [] }, passwordless: { enabled: false }, webauthn: { enabled: true }, firstFactors: ["emailpassword", "webauthn"],
    }))).toEqual([]);
    // Admin paths have parameters: /admin/v1/sessions/abc is checked as /admin/v1/sessions/{handle}.
    expect(checkAnswer("DELETE", "/admin/v1/sessions/abc", 200, "application/json", JSON.stringify({ handle: "abc", userId: "u", revoked: true }))).toEqual([]);
    expect(checkAnswer("DELETE", "/admin/v1/sessions/abc", 200, "application/json", JSON.stringify({ handle: "abc", userId: "u", revoked: true, token: "x" }))).toEqual([
      expect.stringMatching(/^DELETE \/admin\/v1\/sessions\/abc → 200: body does not match the document/),
    ]);
    expect(checkAnswer("POST", "/admin/v1/users", 200, "application/json", "{}")).toEqual([expect.stringMatching(/status 200 is not described/)]);
    const unauthorised = JSON.stringify({ message: "Admin API key required" });
    expect(checkAnswer("GET", "/admin/v1/users/u1/sessions", 401, "application/json", unauthorised, new Headers())).toEqual([
      expect.stringMatching(/required header www-authenticate is missing/),
    ]);
    expect(checkAnswer("GET", "/admin/v1/users/u1/sessions", 401, "application/json", unauthorised, new Headers({ "www-authenticate": "Bearer" }))).toEqual([]);
  });

  it("answers of the public documents and probes match it (checked by the test setup on every fetch)", async () => {
    for (const path of ["/healthz", "/readyz", "/auth/jwt/jwks.json", "/auth/.well-known/openid-configuration", "/auth/loginmethods", "/auth/public/openapi.json"]) {
      const res = await fetch(t.url + path);
      expect(res.status, path).toBe(200);
    }
  });
});
