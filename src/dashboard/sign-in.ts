import { defineEventHandler, getQuery, getRequestHeader, sendRedirect, setResponseStatus, type EventHandler, type H3Event } from "h3";
import { readFormBody } from "../http/body.js";
import type { HttpDeps } from "../http/deps.js";
import { clientAddress, clientKey } from "../http/limit-guard.js";
import { setPageHeaders } from "../http/pages/headers.js";
import { hasAdmins } from "./accounts/admins.js";
import { endAdminSession, findLiveAdminSession, matchesCsrfToken } from "./accounts/sessions.js";
import { signInAdmin } from "./accounts/sign-in.js";
import { clearSessionCookie, readSessionCookie, setSessionCookie } from "./cookies.js";
import { DASHBOARD_PATH } from "./kit.js";
import { renderErrorPage } from "./plain-page.js";
import { checkDashboardTarget, isSameOriginPost } from "./request-checks.js";
import { renderSignInPage } from "./sign-in-page.js";

const WRONG = "Wrong email, password or code. A code works once: if you just used one, wait for the next.";
const NO_SECOND_FACTOR = "This admin account has no second factor, so it cannot sign in. On the server, run `authsvc admins reset-2fa <email>` to give it one.";

/** GET /admin/sign-in: the form (or, already signed in, straight on). */
export function signInPage(deps: HttpDeps): EventHandler {
  const config = deps.ctx.config;
  return defineEventHandler(async (event) => {
    const q = getQuery(event);
    const next = checkDashboardTarget(typeof q.next === "string" ? q.next : undefined);
    const token = readSessionCookie(event, config);
    if (token && (await findLiveAdminSession(deps.ctx, token))) return sendRedirect(event, next, 303);
    setPageHeaders(event, config);
    const notice = q["signed-out"] !== undefined ? "You are signed out." : q.ended !== undefined ? "Your admin session has ended. Please sign in again." : undefined;
    return renderSignInPage(config, { next, notice, noAdmins: !(await hasAdmins(deps.ctx)) });
  });
}

/** POST /admin/sign-in: password and code in one step; one answer for every wrong input. */
export function signInAction(deps: HttpDeps): EventHandler {
  const config = deps.ctx.config;
  return defineEventHandler(async (event) => {
    if (!isSameOriginPost(event, config)) return refuse(event, deps, "This sign-in did not come from the dashboard's own page.");
    const form = await readFormBody(event, config.bodyLimit);
    const next = checkDashboardTarget(form.get("next"));
    const email = (form.get("email") ?? "").trim();
    const password = form.get("password") ?? "";
    const code = (form.get("code") ?? "").trim();
    const again = (status: number, error: string) => {
      setPageHeaders(event, config);
      setResponseStatus(event, status);
      return renderSignInPage(config, { next, email: email.slice(0, 254), error });
    };
    if (!email || !password || !code) return again(400, "Enter your email, password and the code from your authenticator app.");
    if (email.length > 254 || Buffer.byteLength(password) > 1024 || code.length > 12) return again(400, WRONG);
    const result = await signInAdmin(deps.ctx, { email, password, code, ipKey: clientKey(event, config), ip: clientAddress(event, config) || null, userAgent: getRequestHeader(event, "user-agent") ?? null });
    if (result.status === "WRONG_CREDENTIALS") return again(401, WRONG);
    if (result.status === "NO_SECOND_FACTOR") return again(403, NO_SECOND_FACTOR);
    setSessionCookie(event, config, result.token);
    return sendRedirect(event, next, 303);
  });
}

/** POST /admin/sign-out: ends this session (CSRF-checked like every other POST). */
export function signOutAction(deps: HttpDeps): EventHandler {
  const config = deps.ctx.config;
  return defineEventHandler(async (event) => {
    const token = readSessionCookie(event, config);
    const session = token ? await findLiveAdminSession(deps.ctx, token) : undefined;
    if (!session) return refuse(event, deps, "You are not signed in to the dashboard (or your session has ended).");
    if (!isSameOriginPost(event, config)) return refuse(event, deps, "This request did not come from the dashboard's own pages.", true);
    const form = await readFormBody(event, config.bodyLimit);
    if (!matchesCsrfToken(session, form.get("csrf"))) return refuse(event, deps, "This form has expired or did not come from the dashboard. Reload the page and try again.", true);
    await endAdminSession(deps.ctx, session);
    clearSessionCookie(event, config);
    return sendRedirect(event, `${DASHBOARD_PATH}/sign-in?signed-out`, 303);
  });
}

/** 403 with a page saying why; nothing was changed. */
export function refuse(event: H3Event, deps: HttpDeps, message: string, signedIn = false): string {
  setPageHeaders(event, deps.ctx.config);
  setResponseStatus(event, 403);
  return renderErrorPage(deps.ctx.config, { title: "Refused", message, signedIn });
}
