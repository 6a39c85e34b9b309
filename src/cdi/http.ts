import type { H3Event } from "h3";
import type { CoreContext } from "../core/context.js";
import type { TestApps } from "./test-apps.js";

/** What the core answers with a plain-text body and a status (not a domain outcome, which is 200 + status). */
export class CdiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** One CDI request as a route sees it: the JSON body (POST/PUT), the query, the tenant of the path. */
export interface CdiCall {
  ctx: CoreContext;
  event: H3Event;
  body: Record<string, unknown>;
  query: URLSearchParams;
  tenantId: string;
  /** The test mode's apps (AUTHSVC_CDI_TEST_MODE), for the routes that make and remove them. */
  apps?: TestApps;
}

/**
 * One CDI route. `tenant`: also answered under a tenant prefix (`/<t>/recipe/signup`); `open`: no
 * API key and no cdi-version (the JWKS); `unversioned`: the key but no cdi-version (/apiversion).
 */
export interface CdiRoute {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  tenant?: boolean;
  open?: boolean;
  unversioned?: boolean;
  /** Served only in the test mode, and only outside an app (`/cdi/recipe/multitenancy/app/v2`). */
  testMode?: boolean;
  handler(call: CdiCall): Promise<unknown> | unknown;
}

/** A field of the body or query the core requires: 400 with the core's words when missing or of the wrong type. */
export function str(call: CdiCall, name: string): string {
  return field(call, name, {})!;
}

/** The same, absent allowed. */
export function optStr(call: CdiCall, name: string): string | undefined {
  return field(call, name, { optional: true });
}

function field(call: CdiCall, name: string, opts: { optional?: boolean }): string | undefined {
  const v = call.event.method === "GET" ? call.query.get(name) ?? undefined : call.body[name];
  if (v === undefined || v === null) {
    if (opts.optional) return undefined;
    throw new CdiError(400, call.event.method === "GET" ? `Field name '${name}' is missing in GET request` : `Field name '${name}' is invalid in JSON input`);
  }
  if (typeof v !== "string") throw new CdiError(400, `Field name '${name}' is invalid in JSON input`);
  return v;
}

export function bool(call: CdiCall, name: string, fallback?: boolean): boolean {
  const v = call.event.method === "GET" ? call.query.get(name) ?? undefined : call.body[name];
  if (v === undefined || v === null) {
    if (fallback !== undefined) return fallback;
    throw new CdiError(400, `Field name '${name}' is invalid in JSON input`);
  }
  if (typeof v === "boolean") return v;
  if (v === "true" || v === "false") return v === "true";
  throw new CdiError(400, `Field name '${name}' is invalid in JSON input`);
}

/** A JSON object field (a token payload, session data). */
export function obj(call: CdiCall, name: string, opts: { optional?: boolean } = {}): Record<string, unknown> | undefined {
  const v = call.body[name];
  if (v === undefined || v === null) {
    if (opts.optional) return undefined;
    throw new CdiError(400, `Field name '${name}' is invalid in JSON input`);
  }
  if (typeof v !== "object" || Array.isArray(v)) throw new CdiError(400, `Field name '${name}' is invalid in JSON input`);
  return v as Record<string, unknown>;
}

export function strList(call: CdiCall, name: string): string[] | undefined {
  const v = call.body[name];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every((s) => typeof s === "string")) throw new CdiError(400, `Field name '${name}' is invalid in JSON input`);
  return v as string[];
}
