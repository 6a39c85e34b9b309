import { createRouter, defineEventHandler, getRequestHeader, setResponseHeader, setResponseStatus, type EventHandler, type RouterMethod } from "h3";
import { AuthError } from "../../core/errors.js";
import { checkLimit, countFailure } from "../../core/limits.js";
import { clientKey } from "../limit-guard.js";
import type { HttpDeps } from "../deps.js";
import { createKeyGuard } from "./key-guard.js";
import { ADMIN_PREFIX } from "./route.js";

/**
 * Everything under /admin/v1 (ADMIN_PREFIX; the rest of /admin is the dashboard, src/dashboard/):
 * mounted before CORS so no CORS header is ever added here. The admin API is for the app's backend,
 * server to server: a browser preflight is refused (the key must never live in a page), and without
 * AUTHSVC_ADMIN_API_KEY the whole prefix is 404. Requests to other paths pass through untouched.
 */
export function createAdminHandler(deps: HttpDeps): EventHandler {
  const key = deps.ctx.config.adminApiKey;
  const guard = key ? createKeyGuard(key) : undefined;
  const router = createRouter({ preemptive: true });
  for (const r of deps.tables.adminRoutes) {
    const methods = (r.method === "GET" ? ["get", "head"] : [r.method.toLowerCase()]) as RouterMethod[];
    router.add(ADMIN_PREFIX + r.path, r.handler(deps), methods);
  }
  return defineEventHandler(async (event) => {
    const path = event.path.split("?")[0];
    if (path !== ADMIN_PREFIX && !path.startsWith(`${ADMIN_PREFIX}/`)) return undefined;
    if (event.method === "OPTIONS" && getRequestHeader(event, "access-control-request-method") !== undefined) {
      setResponseStatus(event, 403);
      return { message: "The admin API is not available to browsers (no CORS): call it from your backend." };
    }
    if (!guard) throw new AuthError("NOT_FOUND", "Not Found");
    // Wrong keys are counted per client IP; once they fill the bucket every admin request from
    // that client is refused (429) before its key is even compared, the right key included, so
    // guessing stops there. A missing key is a misconfigured client, not a guess: not counted.
    const client = clientKey(event, deps.ctx.config);
    await checkLimit(deps.ctx, "admin-key-ip", client);
    const refused = guard(event);
    if (refused === "invalid") await countFailure(deps.ctx, "admin-key-ip", client);
    if (refused) {
      // RFC 6750 §3: say which scheme is expected; "invalid_token" when a key was sent but is wrong.
      setResponseHeader(event, "www-authenticate", refused === "invalid" ? 'Bearer realm="authsvc-admin", error="invalid_token"' : 'Bearer realm="authsvc-admin"');
      setResponseStatus(event, 401);
      return { message: refused === "invalid" ? "Invalid admin API key" : "Admin API key required: Authorization: Bearer <AUTHSVC_ADMIN_API_KEY>" };
    }
    return router.handler(event);
  });
}
