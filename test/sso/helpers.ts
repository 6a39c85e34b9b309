import { expect } from "vitest";
import type { TestApp } from "../helpers/test-app.js";
import { runCli } from "../helpers/cli.js";

export const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
export const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
export const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
export const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";

/** The organization's SCIM token, as an operator makes it: `authsvc orgs scim-token <org> --json`. */
export async function scimToken(t: TestApp, org: string): Promise<string> {
  const r = await runCli(["orgs", "scim-token", org, "--json", "--database", t.config.database]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const { token } = JSON.parse(r.stdout) as { token: string };
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return token;
}

/** One SCIM request as a directory sends it (application/scim+json, the bearer token). */
export async function scim(t: TestApp, token: string | undefined, method: string, path: string, body?: unknown) {
  t.clock.advance(1);
  const res = await fetch(`${t.url}/scim/v2${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { "content-type": "application/scim+json; charset=utf-8" }), accept: "application/scim+json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 204) expect(res.headers.get("content-type")).toMatch(/^application\/scim\+json/);
  return { status: res.status, json: (text ? JSON.parse(text) : undefined) as Record<string, any> };
}

export const patchOps = (...Operations: unknown[]) => ({ schemas: [PATCH], Operations });
