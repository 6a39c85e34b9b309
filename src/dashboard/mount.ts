import { createRouter, defineEventHandler, getRouterParams, sendRedirect, setResponseHeader, setResponseStatus, type EventHandler, type H3Event, type RouterMethod } from "h3";
import { AuthError } from "../core/errors.js";
import { readFormBody } from "../http/body.js";
import type { HttpDeps } from "../http/deps.js";
import { errorResponse } from "../http/errors.js";
import { setPageHeaders } from "../http/pages/headers.js";
import { isBusyError } from "../store/database.js";
import { classifyOutage } from "../store/outage.js";
import { findLiveAdminSession, matchesCsrfToken } from "./accounts/sessions.js";
import { serveDashboardAsset } from "./assets.js";
import { readSessionCookie, setFlashCookie, takeFlashCookie } from "./cookies.js";
import { DASHBOARD_PATH, escapeHtml, type DashboardRequest, type DashboardResult, type DashboardRoute } from "./kit.js";
import { renderDashboardPage } from "./layout.js";
import { renderErrorPage } from "./plain-page.js";
import { checkDashboardTarget, isDashboardPath, isSameOriginPost } from "./request-checks.js";
import { dashboardRoutes } from "./routes.js";
import { refuse, signInAction, signInPage, signOutAction } from "./sign-in.js";

/**
 * The admin dashboard under /admin (the admin API keeps /admin/v1): mounted before CORS, so no CORS
 * header is ever added. Its own pages (sign-in, sign-out, assets) need no session; every route of
 * dashboardRoutes does: without one a GET goes to the sign-in page (coming back afterwards) and a
 * POST is refused (403). An app user's session is no admin session: only the admin cookie counts.
 * Every POST is checked twice against CSRF (same origin, and the session's token in the form) before
 * the route runs, so the rooms' handlers only render and act. Errors become HTML pages with the
 * status the API would give (a database outage: 503 with Retry-After); nothing leaks as a 500.
 */
export function createDashboardHandler(deps: HttpDeps): EventHandler {
  const router = createRouter({ preemptive: true });
  router.get(`${DASHBOARD_PATH}/sign-in`, signInPage(deps));
  router.head(`${DASHBOARD_PATH}/sign-in`, signInPage(deps));
  router.post(`${DASHBOARD_PATH}/sign-in`, signInAction(deps));
  router.post(`${DASHBOARD_PATH}/sign-out`, signOutAction(deps));
  router.get(`${DASHBOARD_PATH}/_assets/:name`, serveDashboardAsset());
  router.head(`${DASHBOARD_PATH}/_assets/:name`, serveDashboardAsset());
  const table = dashboardRoutes(deps.tables);
  const routes = table.some((r) => r.method === "GET" && r.path === DASHBOARD_PATH) ? table : [...table, placeholderOverview];
  for (const r of [...routes, notFound]) {
    const methods: RouterMethod[] = r.method === "GET" ? ["get", "head"] : ["post"];
    router.add(r.path, runRoute(deps, r), methods);
  }
  return defineEventHandler(async (event) => {
    if (!isDashboardPath(event.path.split("?")[0])) return undefined;
    try {
      return await router.handler(event);
    } catch (err) {
      return renderFailure(event, deps, err);
    }
  });
}

/** One dashboard route behind the admin session and, for a POST, the CSRF checks. */
function runRoute(deps: HttpDeps, route: DashboardRoute): EventHandler {
  const { ctx } = deps;
  return defineEventHandler(async (event) => {
    const token = readSessionCookie(event, ctx.config);
    const session = token ? await findLiveAdminSession(ctx, token) : undefined;
    if (!session || !token) {
      if (route.method === "POST") return refuse(event, deps, "You are not signed in to the dashboard (or your session has ended). Nothing was changed.");
      const next = checkDashboardTarget(event.path);
      return sendRedirect(event, `${DASHBOARD_PATH}/sign-in${token ? "?ended&" : "?"}next=${encodeURIComponent(next)}`, 303);
    }
    let form = new URLSearchParams();
    if (route.method === "POST") {
      if (!isSameOriginPost(event, ctx.config)) return refuse(event, deps, "This request did not come from the dashboard's own pages. Nothing was changed.", true);
      form = await readFormBody(event, ctx.config.bodyLimit);
      if (!matchesCsrfToken(session, form.get("csrf"))) return refuse(event, deps, "This form has expired or did not come from the dashboard. Reload the page and try again. Nothing was changed.", true);
    }
    const url = new URL(event.path, "http://x");
    const r: DashboardRequest = {
      event, deps, ctx, admin: session.admin, csrf: session.csrf, source: `admin:${session.admin.id}`,
      params: { ...getRouterParams(event, { decode: true }) }, query: url.searchParams, form,
      flash: route.method === "GET" ? takeFlashCookie(event, ctx.config, token) : undefined,
    };
    return sendResult(event, deps, await route.handler(r), token);
  });
}

/** A page (with the pages' headers) or a redirect (post/redirect/get) carrying its message. */
function sendResult(event: H3Event, deps: HttpDeps, result: DashboardResult, token: string): string | Promise<void> {
  if ("redirect" in result) {
    if (result.flash) setFlashCookie(event, deps.ctx.config, token, result.flash);
    const api = `${deps.ctx.config.publicUrl}${deps.ctx.config.apiBasePath}/`;
    if (result.toApi && result.redirect.startsWith(api) && !/[\\\s]/.test(result.redirect)) return sendRedirect(event, result.redirect, 303);
    return sendRedirect(event, checkDashboardTarget(result.redirect), 303);
  }
  setPageHeaders(event, deps.ctx.config);
  if (result.status) setResponseStatus(event, result.status);
  return result.html;
}

/** Anything thrown: the status and words the API would answer, as a page; outages are noted as elsewhere. */
function renderFailure(event: H3Event, deps: HttpDeps, err: unknown): string {
  const cause = err instanceof Error && "cause" in err && err.cause ? err.cause : err;
  if (isBusyError(cause)) deps.ctx.metrics.databaseBusy();
  const outage = classifyOutage(cause);
  if (outage) {
    deps.ctx.metrics.databaseUnavailable(outage);
    deps.noteOutage?.(outage, cause);
  }
  const r = errorResponse(err, deps.ctx.logger, event);
  setPageHeaders(event, deps.ctx.config);
  setResponseStatus(event, r.status);
  if (r.retryAfter !== undefined) setResponseHeader(event, "retry-after", r.retryAfter);
  const titles: Record<number, string> = { 400: "Bad request", 403: "Refused", 404: "Not found", 405: "Not allowed", 409: "Conflict", 413: "Too large", 415: "Unsupported form", 429: "Too many requests", 503: "Unavailable" };
  // Only which way on to offer (the overview or the sign-in page); the session is not checked again here.
  const signedIn = readSessionCookie(event, deps.ctx.config) !== undefined;
  return renderErrorPage(deps.ctx.config, { title: titles[r.status] ?? "Something went wrong", message: String(r.body.message ?? "Internal Error"), signedIn });
}

/** Any other GET under /admin: asks for a session first (a path's existence is nobody else's business), then 404. */
const notFound: DashboardRoute = {
  method: "GET",
  path: `${DASHBOARD_PATH}/**`,
  handler: async () => { throw new AuthError("NOT_FOUND", "There is no such page in the dashboard."); },
};

/**
 * The overview until its room (dash-ops) lists its own page for /admin: signing in must land
 * somewhere. Replaced automatically once dashboardRoutes has a GET /admin.
 */
const placeholderOverview: DashboardRoute = {
  method: "GET",
  path: DASHBOARD_PATH,
  handler: async (r) => renderDashboardPage(r, { title: "Overview", section: DASHBOARD_PATH, main: `<p>Signed in as ${escapeHtml(r.admin.email)}.</p>` }),
};
