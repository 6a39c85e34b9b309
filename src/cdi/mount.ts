import { timingSafeEqual } from "node:crypto";
import { defineEventHandler, getRequestHeader, setResponseHeader, setResponseStatus, type EventHandler, type H3Event } from "h3";
import { AuthError } from "../core/errors.js";
import { readJsonBody, HttpInputError } from "../http/body.js";
import type { HttpDeps } from "../http/deps.js";
import { CdiError, type CdiCall, type CdiRoute } from "./http.js";
import { createTestApps, keyDigest as digest, type TestApp, type TestApps } from "./test-apps.js";

/** Where the CDI is served: the SDK's connectionURI is `<public URL>/cdi`. */
export const CDI_PREFIX = "/cdi";
/** The CDI versions really implemented (`GET /apiversion`): supertokens-node 24 speaks 5.4 only. */
export const CDI_VERSIONS = ["5.4"] as const;

const ID = /^[a-z0-9-]+$/;

/**
 * The CDI on the API's listener, before CORS (server to server only): finds the route under the
 * optional `/appid-<app>` and `/<tenant>` prefixes (only the public app and tenant exist here),
 * checks the API key (the `api-key` header, or `Authorization: Bearer`) and `cdi-version` as the
 * core does, and answers domain outcomes as 200 JSON and everything else as plain text with the
 * core's status codes (400 bad input, 401 "Invalid API key", 404 "Not found", 405, 500).
 */
export function createCdiMount(routes: readonly CdiRoute[]): (deps: HttpDeps) => EventHandler {
  const table = new Map<string, Map<string, CdiRoute>>();
  for (const r of routes) {
    if (!table.has(r.path)) table.set(r.path, new Map());
    table.get(r.path)!.set(r.method, r);
  }
  return (deps) => {
    const { ctx } = deps;
    // The test mode's apps (test-apps.ts): the CDI answers without a key of its own then.
    const apps = ctx.config.cdiTestMode ? createTestApps(ctx) : undefined;
    return defineEventHandler(async (event) => {
      const key = ctx.config.cdiApiKey;
      if (key === undefined && !apps) return undefined; // off: the kernel's 404 answers
      try {
        return await answer(event, deps, table, key === undefined ? undefined : digest(key), apps);
      } catch (err) {
        if (err instanceof CdiError) return text(event, err.status, err.message);
        if (err instanceof HttpInputError) return text(event, err.status === 413 ? 413 : 400, err.message);
        // A person gate (a ban) refused the session: the app's request fails with the reason, not a 500.
        if (err instanceof AuthError && err.code === "SIGN_IN_REFUSED") return text(event, 400, err.message);
        ctx.logger.error("cdi request failed", { path: event.path.split("?")[0], err });
        return text(event, 500, "Internal Error");
      }
    });
  };
}

async function answer(event: H3Event, deps: HttpDeps, table: Map<string, Map<string, CdiRoute>>, key: Buffer | undefined, apps: TestApps | undefined): Promise<unknown> {
  const [rawPath, rawQuery = ""] = event.path.split("?", 2);
  let segments = rawPath.slice(CDI_PREFIX.length).split("/").filter((s) => s !== "");
  let app: TestApp | undefined;
  if (segments[0]?.startsWith("appid-")) {
    const id = segments[0].slice("appid-".length);
    if (id !== "public") {
      app = apps?.get(id);
      if (!app) throw new CdiError(400, `AppId or tenantId not found => Tenant with the following connectionURIDomain, appId and tenantId combination not found: (, ${id}, public)`);
    }
    segments = segments.slice(1);
  }
  let tenantId = "public";
  let methods = table.get("/" + segments.join("/"));
  if (!methods && segments.length > 1 && ID.test(segments[0])) {
    const tenanted = table.get("/" + segments.slice(1).join("/"));
    if (tenanted && [...tenanted.values()].some((r) => r.tenant)) {
      tenantId = segments[0];
      methods = new Map([...tenanted].filter(([, r]) => r.tenant));
    }
  }
  if (methods && [...methods.values()].every((r) => r.testMode) && (!apps || app)) methods = undefined;
  if (!methods) throw new CdiError(404, "Not found");
  const route = methods.get(event.method === "HEAD" ? "GET" : event.method);
  if (!route) throw new CdiError(405, "Method not supported");
  // The key: the server's; in the test mode an app's own (its `api_keys`), or none when it has none.
  const expected = app ? app.apiKey : key;
  if (!route.open && expected !== undefined) {
    const given = getRequestHeader(event, "api-key") || /^Bearer\s+(\S+)\s*$/i.exec(getRequestHeader(event, "authorization") ?? "")?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), expected)) throw new CdiError(401, "Invalid API key");
  }
  if (!route.open) {
    if (!route.unversioned) {
      const version = getRequestHeader(event, "cdi-version");
      if (version === undefined || version === "") throw new CdiError(400, "cdi-version not provided");
      if (!(CDI_VERSIONS as readonly string[]).includes(version)) throw new CdiError(400, `cdi-version ${version} not supported`);
    }
  }
  if (tenantId !== "public") throw new CdiError(400, `AppId or tenantId not found => Tenant with the following connectionURIDomain, appId and tenantId combination not found: (, public, ${tenantId})`);
  const body = event.method === "POST" || event.method === "PUT" || event.method === "DELETE" ? await readJsonBody(event, deps.ctx.config.bodyLimit) : {};
  const call: CdiCall = { ctx: app ? await app.ctx() : deps.ctx, event, body, query: new URLSearchParams(rawQuery), tenantId, apps };
  return route.handler(call);
}

function text(event: H3Event, status: number, message: string): string {
  setResponseStatus(event, status);
  setResponseHeader(event, "content-type", "text/plain; charset=utf-8");
  return `${message}\n`;
}
