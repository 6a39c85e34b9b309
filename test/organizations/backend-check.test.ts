import { execFile, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { call, newPerson } from "./helpers.js";

/** The backend check of docs/organizations.md and docs/backend-sessions.md (the examples), on real tokens. */
const ROOT = resolve(import.meta.dirname, "../..");
const EXAMPLE = join(ROOT, "examples/verify-session.mjs");
const PY_EXAMPLE = join(ROOT, "examples/verify_session.py");
const python = ["/usr/bin/python3", "python3"].find((p) => spawnSync(p, ["-c", "import jwt"]).status === 0);

type Session = { userId: string; organization: { id: string; slug: string; role: string; permissions: string[] } | null };
type Example = { verifySession(token: string): Promise<Session>; requireOrgPermission(s: Session, orgId: string, permission: string): void };

describe.each(backends)("the app's backend checks the org claim ($name)", (backend) => {
  let t: TestApp;
  let env: Record<string, string>;
  let example: Example;
  beforeAll(async () => {
    t = await createTestApp({ backend, config: { rateLimits: false } });
    env = { AUTHSVC_URL: t.config.publicUrl, AUTHSVC_JWKS_URL: `${t.url}${t.config.apiBasePath}/jwt/jwks.json` };
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try { example = (await import(`${EXAMPLE}?orgs-${backend.name}`)) as Example; } finally { process.env = saved; }
  });
  afterAll(async () => { await t.close(); });

  it("reads the active organization and refuses a permission or an organization that is not the token's", async () => {
    const ann = await newPerson(t, "ann@backend.test", false);
    expect((await example.verifySession(ann.tokens.access)).organization).toBeNull();
    const o = (await call(t, "POST", "/organizations", ann, { name: "Backend" })).json.organization;
    const s = await example.verifySession(ann.tokens.access);
    expect(s.organization).toMatchObject({ id: o.id, slug: "backend", role: "owner" });
    expect(() => example.requireOrgPermission(s, o.id, "members:remove")).not.toThrow();
    expect(() => example.requireOrgPermission(s, o.id, "invoices:read")).toThrow(/missing permission invoices:read/);
    expect(() => example.requireOrgPermission(s, "another-org", "members:remove")).toThrow(/in organization another-org/);
    if (python) {
      const out = await new Promise<string>((ok, fail) => execFile(python, ["-c", [
        "import json, sys", `sys.path.insert(0, ${JSON.stringify(join(ROOT, "examples"))})`, "import verify_session as v",
        `s = v.verify_session(${JSON.stringify(ann.tokens.access)})`,
        `v.require_org_permission(s, ${JSON.stringify(o.id)}, "members:remove")`,
        "try:\n    v.require_org_permission(s, 'another-org', 'members:remove')\n    print('not refused')\nexcept PermissionError as e:\n    print(json.dumps({'org': s['organization'], 'refused': str(e)}))",
      ].join("\n")], { env: { PATH: process.env.PATH, PYTHONDONTWRITEBYTECODE: "1", ...env }, timeout: 30_000 }, (err, stdout, stderr) => (err ? fail(new Error(stderr)) : ok(stdout))));
      expect(JSON.parse(out)).toEqual({ org: s.organization, refused: "missing permission members:remove in organization another-org" });
    }
  });
});

it("docs/organizations.md shows the example's requireOrgPermission verbatim", () => {
  const js = readFileSync(EXAMPLE, "utf8");
  const fn = js.slice(js.indexOf("/**\n * An organization-scoped route"), js.indexOf("}\n}\n", js.indexOf("export function requireOrgPermission")) + 4);
  expect(fn).toContain("export function requireOrgPermission");
  expect(readFileSync(join(ROOT, "docs/organizations.md"), "utf8")).toContain(fn);
});
