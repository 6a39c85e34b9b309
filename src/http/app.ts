import { createApp, createRouter, defineEventHandler, H3Error, setResponseHeader, setResponseHeaders, setResponseStatus, toNodeListener, type App as H3App } from "h3";
import { AuthError } from "../core/errors.js";
import { createAdminHandler } from "./admin/mount.js";
import { ADMIN_PREFIX } from "./admin/route.js";
import { isBusyError } from "../store/database.js";
import { classifyOutage } from "../store/outage.js";
import { metricsHandler, requestMetricsHook } from "./metrics.js";
import { corsHandler } from "./cors.js";
import { devHostGuard } from "./dev-host-guard.js";
import type { HttpDeps } from "./deps.js";
import { sendError } from "./errors.js";
import { buildPageHandler } from "./pages/routes.js";
import { clientAddress, guardRoute } from "./limit-guard.js";
import { guardSession } from "./guard.js";
import { readHeader } from "./headers.js";
import { noteRequestClient } from "./server.js";
import { createForwardedHeaderWarning } from "./forwarded-warning.js";

/** Builds the h3 app from the tables the composition root assembled from the rooms (deps.tables). */
export function createHttpApp(deps: HttpDeps): H3App {
  const logger = deps.ctx.logger;
  const app = createApp({
    onError: (err, event) => {
      const cause = err instanceof H3Error && err.cause ? err.cause : err;
      if (isBusyError(cause)) deps.ctx.metrics.databaseBusy();
      const outage = classifyOutage(cause);
      if (outage) {
        deps.ctx.metrics.databaseUnavailable(outage);
        deps.noteOutage?.(outage, cause);
      }
      if (event.handled) return;
      const body = sendError(event, err, logger);
      setResponseHeaders(event, { "content-type": "application/json; charset=utf-8" });
      return event.node.res.end(JSON.stringify(body));
    },
  });
  if (deps.ctx.metrics.enabled) app.use(requestMetricsHook(deps.ctx.metrics));
  // Baseline headers on every response (security-bar 57, 58): nothing here may be cached unless a
  // handler says so (JWKS, discovery).
  const config = deps.ctx.config;
  app.use(defineEventHandler((event) => {
    noteRequestClient(() => ({ ip: clientAddress(event, config), userAgent: readHeader(event, "user-agent") }));
    setResponseHeaders(event, {
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "cache-control": "no-store",
      // Every answer is JSON; h3 only adds "application/json" (no charset) when none is set.
      "content-type": "application/json; charset=utf-8",
    });
  }));
  // Before every route, the admin API included: DNS rebinding must reach nothing in development.
  // Both are layers with a match: a request they do not concern never calls them (no awaited promise).
  const hostGuard = devHostGuard(deps.ctx.config);
  if (hostGuard) app.use(hostGuard.handler, { match: hostGuard.match });
  const forwarded = createForwardedHeaderWarning(deps.ctx.config, logger);
  if (forwarded) app.use(forwarded.handler, { match: forwarded.match });
  // Before CORS: /admin/* must never carry CORS headers: the admin API (/admin/v1) is server to
  // server only (admin/mount.ts), the dashboard (the rest of /admin) same-origin pages only.
  app.use(createAdminHandler(deps), { match: under(ADMIN_PREFIX) });
  for (const mount of deps.tables.mounts) app.use(mount.handler(deps), mount.path ? { match: under(mount.path) } : {});
  app.use(corsHandler(deps.ctx.config, deps.tables.requestHeaders(deps.ctx.config)));
  const router = createRouter();
  const base = deps.ctx.config.apiBasePath;
  const methodsByPath = new Map<string, string[]>();
  for (const r of deps.tables.routes) {
    // Who may call it (http/guard.ts): the session first, then the rooms' guards (a role in what the
    // path names, a bot check), all inside the per-IP limits: a refused request still counts.
    let roomGuarded = false;
    const inner = deps.tables.routeGuards.reduce((h, guard) => {
      const g = guard(deps, r, h);
      if (g) roomGuarded = true;
      return g ?? h;
    }, r.handler(deps));
    if (r.role && !roomGuarded) throw new Error(`${r.method} ${r.path} needs a role in "${r.role.scope}", which no room guards`);
    const handler = guardRoute(deps, r.limits ?? [], guardSession(deps, r, inner));
    const paths = r.root ? [r.path] : [base + r.path, `${base}/public${r.path}`];
    // Every GET route answers HEAD too (RFC 9110 §9.1; load balancers probe /healthz with it);
    // Node drops the body of a HEAD response.
    const methods = r.method === "GET" ? ["GET", "HEAD"] : [r.method];
    for (const p of paths) {
      router.add(p, handler, methods.map((m) => m.toLowerCase() as "get" | "head" | "post" | "put"));
      methodsByPath.set(p, [...(methodsByPath.get(p) ?? []), ...methods]);
    }
  }
  if (deps.metricsEndpoint) {
    router.add("/metrics", metricsHandler(deps.metricsEndpoint), ["get", "head"]);
    methodsByPath.set("/metrics", ["GET", "HEAD"]);
  }
  // Hosted pages and development pages (their own table: absolute paths, loopback guard).
  for (const r of deps.tables.pages(deps.ctx.config)) {
    const methods = r.method === "GET" ? ["GET", "HEAD"] : [r.method];
    router.add(r.path, buildPageHandler(r, deps), methods.map((m) => m.toLowerCase() as "get" | "head" | "post"));
    methodsByPath.set(r.path, [...(methodsByPath.get(r.path) ?? []), ...methods]);
  }
  // Nothing matched: a known path with another method is 405 (with Allow), anything else 404. It is
  // the router's own last route too, so h3's router never makes its error for an unknown path: that
  // error puts the decoded path in statusMessage, and a path h3 must sanitize ("/caf%C3%A9") printed
  // h3's "[h3] Please prefer using `message`…" line into the JSON log for every such request.
  const nothingMatched = defineEventHandler((event) => {
    const path = event.path.split("?")[0];
    const allowed = methodsByPath.get(path) ?? methodsByPath.get(path.replace(/\/+$/, ""));
    if (allowed) {
      setResponseHeader(event, "allow", allowed.join(", "));
      setResponseStatus(event, 405);
      return { message: "Method Not Allowed" };
    }
    throw new AuthError("NOT_FOUND", "Not Found");
  });
  router.add("/**", nothingMatched);
  app.use(router);
  app.use(nothingMatched);
  return app;
}

/**
 * h3's layer match for a mount: the path itself, anything under it, or it with a query. Matched
 * before the layer is called, so requests elsewhere (every API call) cost no call and no promise.
 */
function under(prefixes: string | readonly string[]): (path: string) => boolean {
  const list = typeof prefixes === "string" ? [prefixes] : prefixes;
  return (path) => list.some((prefix) => path.startsWith(prefix) && (path.length === prefix.length || path[prefix.length] === "/" || path[prefix.length] === "?"));
}

export { toNodeListener };
