import { setResponseHeaders, type H3Event } from "h3";
import type { Config } from "../../config/types.js";

/** Origins a room's part of the pages loads from (a third-party widget), by CSP directive. */
export interface PageSources { script?: readonly string[]; style?: readonly string[]; frame?: readonly string[]; connect?: readonly string[] }

/**
 * Security headers of every HTML page: a strict Content-Security-Policy (scripts, styles and
 * requests from this origin only, nothing inline, no plugins, no <base> tricks), no framing at all
 * (`frame-ancestors 'none'` and X-Frame-Options DENY: clickjacking of a password form), no Referer
 * (pages may carry a token in their URL until the script removes it) and never cached.
 * `frames` lets the inbox show a mail's HTML from its own sandboxed route on this origin.
 */
export function setPageHeaders(event: H3Event, config: Readonly<Config>, opts: { frames?: boolean; sources?: PageSources; lang?: string } = {}): void {
  const img = ["'self'", "data:"];
  const logo = config.pagesLogoUrl && /^https?:/.test(config.pagesLogoUrl) ? new URL(config.pagesLogoUrl).origin : undefined;
  if (logo) img.push(logo);
  const more = opts.sources ?? {};
  const frames = [...(opts.frames ? ["'self'"] : []), ...(more.frame ?? [])];
  const csp = [
    "default-src 'none'",
    ["script-src 'self'", ...(more.script ?? [])].join(" "),
    ["style-src 'self'", ...(more.style ?? [])].join(" "),
    `img-src ${img.join(" ")}`,
    ["connect-src 'self'", ...(more.connect ?? [])].join(" "),
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    frames.length ? `frame-src ${frames.join(" ")}` : undefined,
    "frame-ancestors 'none'",
  ].filter(Boolean).join("; ");
  setResponseHeaders(event, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": csp,
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
    "cross-origin-opener-policy": "same-origin",
    // A page's words follow ?lang=, the cookie and Accept-Language (http/pages/locale.ts).
    ...(opts.lang ? { "content-language": opts.lang, vary: "Accept-Language, Cookie" } : {}),
  });
}

/**
 * Headers of a caught mail's HTML, shown inside the inbox's sandboxed frame: the mail's own inline
 * styles may apply, but it runs no script, loads nothing from the network (no tracking pixels,
 * nothing phoned home) and may only be framed by this origin. The `sandbox` directive makes it an
 * opaque origin even when opened outside the frame.
 */
export function setMailFrameHeaders(event: H3Event): void {
  setResponseHeaders(event, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox; frame-ancestors 'self'",
    "x-frame-options": "SAMEORIGIN",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
  });
}
