import { getDomain } from "tldts";

/**
 * The "site" browsers use for SameSite (HTML "same site", schemeful): the scheme plus the
 * registrable domain from the Public Suffix List, private section included, so a.github.io and
 * b.github.io, or two *.vercel.app apps, are different sites. A host with no registrable domain
 * (localhost, an IP address) is its own site: localhost and 127.0.0.1 are two sites.
 */
export function siteOf(url: URL): string {
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return `${url.protocol}//${getDomain(host, { allowPrivateDomains: true }) ?? host}`;
}

/** True when a browser treats the two origins as one site (cookies with SameSite=Lax flow). */
export function isSameSite(a: URL, b: URL): boolean {
  return siteOf(a) === siteOf(b);
}

/**
 * Loopback hosts are "potentially trustworthy" origins: browsers keep Secure cookies set over
 * plain http there, which makes a cross-site development setup (SameSite=None; Secure) work.
 */
export function isLoopbackHost(url: URL): boolean {
  const h = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h.endsWith(".localhost") || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}
