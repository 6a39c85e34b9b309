import { getRequestHeader, parseCookies, setCookie, type H3Event } from "h3";
import type { Config } from "../config/types.js";
import { signForSession } from "./accounts/sessions.js";
import { DASHBOARD_PATH, type Flash } from "./kit.js";

/**
 * The dashboard's two cookies: the session (the admin session token) and the flash (the message of
 * the last action, shown once after its redirect). Both HttpOnly and SameSite=Strict: a page of
 * another site can neither read them nor have them sent with its requests. Over plain http they are
 * scoped to Path=/admin. Over https they are Secure and named `__Host-…`, which a browser only takes
 * with Path=/ and no Domain: a sibling subdomain can then neither set nor overwrite them (session
 * fixation), which matters more than the path (a path is no boundary within one origin).
 */
interface CookieNames { session: string; flash: string; secure: boolean; path: string }

export function cookieNames(config: Readonly<Config>): CookieNames {
  const secure = config.publicUrl.startsWith("https:");
  return secure
    ? { session: "__Host-authsvc_admin", flash: "__Host-authsvc_admin_flash", secure, path: "/" }
    : { session: "authsvc_admin", flash: "authsvc_admin_flash", secure, path: DASHBOARD_PATH };
}

/** The session token the browser sent, if any (only the first of duplicates: Path=/admin sorts first). */
export function readSessionCookie(event: H3Event, config: Readonly<Config>): string | undefined {
  return getRequestHeader(event, "cookie") ? parseCookies(event)[cookieNames(config).session] : undefined;
}

export function setSessionCookie(event: H3Event, config: Readonly<Config>, token: string): void {
  const n = cookieNames(config);
  // A session cookie (no Max-Age): the browser forgets it when it closes; the server ends it anyway.
  setCookie(event, n.session, token, { httpOnly: true, sameSite: "strict", secure: n.secure, path: n.path });
}

export function clearSessionCookie(event: H3Event, config: Readonly<Config>): void {
  const n = cookieNames(config);
  setCookie(event, n.session, "", { httpOnly: true, sameSite: "strict", secure: n.secure, path: n.path, maxAge: 0 });
}

/** Leaves a message for the next page (signed for this session, a minute at most). */
export function setFlashCookie(event: H3Event, config: Readonly<Config>, sessionToken: string, flash: Flash): void {
  const n = cookieNames(config);
  const body = Buffer.from(JSON.stringify({ k: flash.kind, t: flash.text.slice(0, 500) })).toString("base64url");
  setCookie(event, n.flash, `${body}.${signForSession(sessionToken, body)}`, { httpOnly: true, sameSite: "strict", secure: n.secure, path: n.path, maxAge: 60 });
}

/** Reads and clears the message left by the previous action; one not signed for this session is ignored. */
export function takeFlashCookie(event: H3Event, config: Readonly<Config>, sessionToken: string): Flash | undefined {
  const n = cookieNames(config);
  const raw = getRequestHeader(event, "cookie") ? parseCookies(event)[n.flash] : undefined;
  if (raw === undefined) return undefined;
  setCookie(event, n.flash, "", { httpOnly: true, sameSite: "strict", secure: n.secure, path: n.path, maxAge: 0 });
  const [body, sig] = raw.split(".");
  if (!body || !sig || signForSession(sessionToken, body) !== sig) return undefined;
  try {
    const v = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { k?: unknown; t?: unknown };
    return (v.k === "ok" || v.k === "error") && typeof v.t === "string" ? { kind: v.k, text: v.t } : undefined;
  } catch {
    return undefined;
  }
}
