import { getRequestHeader, type H3Event } from "h3";
import type { Config } from "../config/types.js";
import { DASHBOARD_PATH } from "./kit.js";

/**
 * The same-origin half of the dashboard's CSRF defence (the other half is the per-session token in
 * every form): a POST is refused when the browser says it comes from elsewhere. Sec-Fetch-Site is
 * set by the browser itself (no page can forge it) and every current browser sends it: when present
 * it decides, and only "same-origin" passes. Without it (an older browser) Origin must be this
 * server: the Host it was sent to, or the public URL behind a proxy. Our pages send no Referer
 * (Referrer-Policy: no-referrer), so a browser sends `Origin: null` with their forms: "null" passes
 * only with Sec-Fetch-Site. A client sending neither header (curl, a script) is no page a victim's
 * browser runs; it still needs the session cookie and the form's token.
 */
export function isSameOriginPost(event: H3Event, config: Readonly<Config>): boolean {
  const site = getRequestHeader(event, "sec-fetch-site");
  if (site !== undefined) return site === "same-origin";
  const origin = getRequestHeader(event, "origin");
  if (origin === undefined) return true;
  let u: URL;
  try { u = new URL(origin); } catch { return false; }
  return u.host === getRequestHeader(event, "host") || u.origin === new URL(config.publicUrl).origin;
}

/** True for a path the dashboard answers: /admin and below, except the admin API (/admin/v1). */
export function isDashboardPath(path: string): boolean {
  if (path !== DASHBOARD_PATH && !path.startsWith(`${DASHBOARD_PATH}/`)) return false;
  return path !== `${DASHBOARD_PATH}/v1` && !path.startsWith(`${DASHBOARD_PATH}/v1/`);
}

/**
 * Where to go after sign-in or an action: only a dashboard path on this server (no scheme, no
 * `//host`, no backslash a browser would read as a slash), else the overview. An open redirect
 * from the sign-in page would make a convincing phishing link.
 */
export function checkDashboardTarget(raw: string | null | undefined): string {
  if (!raw || raw.length > 2000 || /[\\\s]/.test(raw) || raw.startsWith("//")) return DASHBOARD_PATH;
  const path = raw.split(/[?#]/)[0];
  if (!isDashboardPath(path) || path.startsWith(`${DASHBOARD_PATH}/sign-`) || path.includes("/..") || path.includes("/./")) return DASHBOARD_PATH;
  return raw;
}
