import { setCookie, setResponseHeader, type H3Event } from "h3";
import { readHeader } from "./headers.js";
import type { Config } from "../config/types.js";
import type { AccessTokenPayload } from "../core/access-tokens.js";
import { isLoopbackHost, isSameSite } from "./site.js";

/**
 * How tokens travel (PROTOCOL.md §2): cookies (default), response headers, or the JSON body.
 * A request authenticated by `Authorization: Bearer` is in header mode, or body mode when it
 * carries the body-mode header.
 */
export type AuthMode = "cookie" | "header" | "body";

export const ACCESS_COOKIE = "sAccessToken";
export const REFRESH_COOKIE = "sRefreshToken";
const ONE_YEAR_MS = 31_536_000_000;
const EPOCH = new Date(0);

export interface CookiePolicy { sameSite: "lax" | "strict" | "none"; secure: boolean; domain?: string; refreshPath: string }

const policies = new WeakMap<object, CookiePolicy>();

/** Cookie attributes resolved once per config (SameSite/Secure "auto" decided here). */
export function cookiePolicy(config: Readonly<Config>): CookiePolicy {
  let p = policies.get(config);
  if (!p) {
    const api = new URL(config.publicUrl);
    const sameSite = config.cookieSameSite !== "auto" ? config.cookieSameSite
      : isSameSite(api, new URL(config.websiteUrl)) ? "lax" : "none";
    // Cross-site cookies must be SameSite=None; Secure or browsers drop them; on a loopback API
    // browsers keep Secure cookies over http, so "auto" turns Secure on there too.
    const secure = config.cookieSecure === "auto"
      ? api.protocol === "https:" || (sameSite === "none" && isLoopbackHost(api))
      : config.cookieSecure === "true";
    p = { sameSite, secure, domain: config.cookieDomain, refreshPath: `${config.apiBasePath}/session/refresh` };
    policies.set(config, p);
  }
  return p;
}

/** The mode a request that starts a session (a sign-up or sign-in of any method) asks for. */
export function selectCreationMode(event: H3Event, config: Readonly<Config>): AuthMode {
  if (wantsBodyMode(event, config)) return "body";
  return String(readHeader(event, "st-auth-mode") ?? "").trim().toLowerCase() === "header" ? "header" : "cookie";
}

/** True when `<brand>-auth-mode: body` or `st-auth-mode: body` is sent. */
export function wantsBodyMode(event: H3Event, config: Readonly<Config>): boolean {
  const v = (name: string) => String(readHeader(event, name) ?? "").trim().toLowerCase();
  return v(`${config.brandPrefix}-auth-mode`) === "body" || v("st-auth-mode") === "body";
}

/** front-token: standard base64 (with padding, atob-compatible) of {uid, ate, up}. */
export function buildFrontToken(payload: AccessTokenPayload): string {
  return Buffer.from(JSON.stringify({ uid: payload.sub, ate: payload.exp * 1000, up: payload }), "utf8").toString("base64");
}

export interface IssuedTokens {
  accessToken: string;
  accessTokenPayload: AccessTokenPayload;
  accessTokenExpiresAt: number;
  /** Absent when only the access token is re-issued (claim update). */
  refreshToken?: string;
  refreshTokenExpiresAt?: number;
}

/**
 * Puts tokens on the response in one mode only (a cookie-mode refresh token never appears in a
 * header or the body). Returns the fields to merge into the JSON body ({} unless body mode).
 */
export function attachTokens(event: H3Event, config: Readonly<Config>, mode: AuthMode, t: IssuedTokens, now: number): Record<string, unknown> {
  setResponseHeader(event, "cache-control", "no-store");
  setResponseHeader(event, "front-token", buildFrontToken(t.accessTokenPayload));
  const exposed = ["front-token"];
  let fields: Record<string, unknown> = {};
  if (mode === "cookie") {
    const p = cookiePolicy(config);
    setCookie(event, ACCESS_COOKIE, t.accessToken, { ...cookieAttrs(p), path: "/", expires: new Date(now + ONE_YEAR_MS) });
    if (t.refreshToken) setCookie(event, REFRESH_COOKIE, t.refreshToken, { ...cookieAttrs(p), path: p.refreshPath, expires: new Date(t.refreshTokenExpiresAt!) });
  } else if (mode === "header") {
    setResponseHeader(event, "st-access-token", t.accessToken);
    exposed.push("st-access-token");
    if (t.refreshToken) {
      setResponseHeader(event, "st-refresh-token", t.refreshToken);
      exposed.push("st-refresh-token");
    }
  } else {
    fields = { accessToken: t.accessToken, ...(t.refreshToken ? { refreshToken: t.refreshToken } : {}), accessTokenExpiresAt: t.accessTokenExpiresAt };
  }
  exposeHeaders(event, exposed);
  return fields;
}

/** Clears tokens in one mode, or every mode ("all") when the request's mode is unknown. */
export function clearTokens(event: H3Event, config: Readonly<Config>, mode: AuthMode | "all"): void {
  setResponseHeader(event, "cache-control", "no-store");
  setResponseHeader(event, "front-token", "remove");
  const exposed = ["front-token"];
  if (mode === "cookie" || mode === "all") {
    const p = cookiePolicy(config);
    setCookie(event, ACCESS_COOKIE, "", { ...cookieAttrs(p), path: "/", expires: EPOCH });
    setCookie(event, REFRESH_COOKIE, "", { ...cookieAttrs(p), path: p.refreshPath, expires: EPOCH });
  }
  if (mode === "header" || mode === "all") {
    setResponseHeader(event, "st-access-token", "");
    setResponseHeader(event, "st-refresh-token", "");
    exposed.push("st-access-token", "st-refresh-token");
  }
  exposeHeaders(event, exposed);
}

function cookieAttrs(p: CookiePolicy) {
  return { httpOnly: true, secure: p.secure, sameSite: p.sameSite, ...(p.domain ? { domain: p.domain } : {}) } as const;
}

/** Adds names to Access-Control-Expose-Headers without duplicates. */
export function exposeHeaders(event: H3Event, names: string[]): void {
  const current = String(event.node.res.getHeader("access-control-expose-headers") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const all = [...new Set([...current, ...names])];
  setResponseHeader(event, "access-control-expose-headers", all.join(", "));
}

/** Values of one cookie name in the raw Cookie header (a duplicate is suspicious, never merged). */
export function readCookieValues(event: H3Event, name: string): string[] {
  const raw = event.node.req.headers.cookie;
  if (!raw) return [];
  const out: string[] = [];
  for (const part of raw.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const v = part.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1");
      try { out.push(decodeURIComponent(v)); } catch { out.push(v); }
    }
  }
  return out;
}

/** The token after exactly "Bearer " in Authorization (never from the query string), or undefined. */
export function readBearer(event: H3Event): string | undefined {
  const h = event.node.req.headers.authorization;
  if (typeof h !== "string" || !h.startsWith("Bearer ")) return undefined;
  const t = h.slice(7).trim();
  return t === "" ? undefined : t;
}
