import { AsyncLocalStorage } from "node:async_hooks";
import type { ServerResponse } from "node:http";
import type { CoreContext } from "../core/context.js";
import { AuthError } from "../core/errors.js";
import { enforceLimit } from "../core/limits.js";
import { checkPublicClientGrants, checkRedirectUri } from "./clients.js";
import { checkFetchUrl, DocumentRefused, guardedFetch, type FetchedDocument, type FetchPolicy } from "./guarded-fetch.js";

/**
 * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document, the MCP 2025-11
 * authorization spec): a client whose `client_id` is an https URL is described by the JSON document
 * at that URL, fetched on first use through guarded-fetch.ts. Such a client is always public: no
 * secret, PKCE (which the provider requires of every client), the authorization code and refresh
 * grants only, and only the redirect URIs its document lists. Documents are cached per their
 * Cache-Control / Expires within bounds, refusals for a short while, in each process.
 */
export const DOCUMENT_MAX_BYTES = 5 * 1024;
export const CACHE_DEFAULT_MS = 5 * 60_000;
export const CACHE_MIN_MS = 60_000;
export const CACHE_MAX_MS = 24 * 3_600_000;
export const NEGATIVE_CACHE_MS = 30_000;
const CACHE_ENTRIES = 1000;

/**
 * The request being handled (mount.ts sets it): fetches count against its client IP's bucket; a
 * refusal sets Retry-After on its response; its path tells the provider's hooks which endpoint runs.
 */
export const requestScope = new AsyncLocalStorage<{ key: string; res: ServerResponse; path: string }>();

/** Whether a client_id is meant as a metadata document URL (anything else is an ordinary client id). */
export const isDocumentClientId = (id: string) => /^https?:\/\//i.test(id);

/** Development: the public URL is on this computer, so local MCP clients may serve their documents there, over http. */
export function isDevelopmentIssuer(publicUrl: string): boolean {
  const h = new URL(publicUrl).hostname;
  return h === "localhost" || h.endsWith(".localhost") || /^127\./.test(h) || h === "[::1]";
}

/** The URL rules of the draft (§3): https, a path, no fragment, credentials or dot segments; the allow-list when set. */
export function checkDocumentUrl(id: string, allowedHosts: readonly string[]): URL {
  let url: URL;
  try { url = new URL(id); } catch { throw new DocumentRefused("the client_id is not a valid URL"); }
  if (url.pathname === "/" || url.pathname === "") throw new DocumentRefused("the client_id URL must have a path (such as https://app.example.com/oauth/client.json)");
  if (id.includes("#")) throw new DocumentRefused("the client_id URL must not have a fragment");
  if (url.username || url.password) throw new DocumentRefused("the client_id URL must not carry credentials");
  if (/\/(\.|%2e){1,2}(\/|$)/i.test(id.replace(/[?#].*$/, "").replace(/^https?:\/\/[^/]+/, ""))) throw new DocumentRefused("the client_id URL must not have . or .. path segments");
  // One spelling per client: the document's client_id is compared as a string, and the cache is keyed by it.
  if (url.href !== id) throw new DocumentRefused(`the client_id URL must be written in normal form (${url.href})`);
  if (allowedHosts.length > 0 && !allowedHosts.includes(url.hostname.toLowerCase())) throw new DocumentRefused(`client metadata documents from ${url.hostname} are not accepted by this server`);
  return url;
}

/** The document as oidc-provider client metadata: only what a public client may say about itself. */
export function documentMetadata(id: string, raw: string): Record<string, unknown> {
  let doc: unknown;
  try { doc = JSON.parse(raw); } catch { throw new DocumentRefused("the document is not JSON"); }
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) throw new DocumentRefused("the document is not a JSON object");
  const d = doc as Record<string, unknown>;
  if (d.client_id !== id) throw new DocumentRefused("the document's client_id must equal the URL it was fetched from");
  if ("client_secret" in d || "client_secret_expires_at" in d) throw new DocumentRefused("a client metadata document must not hold a client_secret");
  const method = d.token_endpoint_auth_method ?? "none";
  if (method !== "none") throw new DocumentRefused("token_endpoint_auth_method must be none: a client described by a metadata document is public and uses PKCE");
  const grants = d.grant_types ?? ["authorization_code"];
  const refusedGrants = checkPublicClientGrants(grants);
  if (refusedGrants) throw new DocumentRefused(refusedGrants);
  const responses = d.response_types ?? ["code"];
  if (!Array.isArray(responses) || responses.length !== 1 || responses[0] !== "code") throw new DocumentRefused("response_types must be [\"code\"]");
  if (!Array.isArray(d.redirect_uris) || d.redirect_uris.length === 0 || d.redirect_uris.length > 20) throw new DocumentRefused("redirect_uris must list 1 to 20 redirect URIs");
  const redirects = d.redirect_uris.map((u) => {
    try { return checkRedirectUri(u); } catch (err) { throw new DocumentRefused(err instanceof AuthError ? err.message : "a redirect URI is invalid"); }
  });
  const name = typeof d.client_name === "string" ? d.client_name.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, 100) : "";
  return {
    client_id: id, ...(name ? { client_name: name } : {}),
    ...(typeof d.client_uri === "string" && /^https:\/\//.test(d.client_uri) && d.client_uri.length <= 2000 ? { client_uri: d.client_uri } : {}),
    token_endpoint_auth_method: "none", grant_types: grants, response_types: ["code"],
    redirect_uris: redirects.map((r) => r.uri), application_type: redirects.some((r) => r.native) ? "native" : "web",
  };
}

/** How long a fetched document may be used: its max-age (or Expires), within [1 min, 24 h]; no-store/no-cache take the minimum. */
export function cacheLifetimeMs(doc: Pick<FetchedDocument, "cacheControl" | "expires" | "date">): number {
  const cc = (doc.cacheControl ?? "").toLowerCase();
  let ms = CACHE_DEFAULT_MS;
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)/.exec(cc);
  if (/(?:^|,)\s*(no-store|no-cache)\b/.test(cc)) ms = 0;
  else if (maxAge) ms = Number(maxAge[1]) * 1000;
  else if (doc.expires) {
    const until = Date.parse(doc.expires), now = doc.date ? Date.parse(doc.date) : Date.now();
    if (Number.isFinite(until) && Number.isFinite(now)) ms = until - now;
  }
  return Math.min(CACHE_MAX_MS, Math.max(CACHE_MIN_MS, ms));
}

type Entry = { until: number; metadata?: Record<string, unknown>; refusal?: string };

/** The per-process loader: cache first, then one fetch per URL at a time, counted against the requester's oauth-client-document-ip bucket. */
export function createDocumentLoader(ctx: CoreContext) {
  const cache = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<Entry>>();
  const remember = (id: string, entry: Entry) => {
    cache.delete(id);
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(id, entry);
    return entry;
  };
  const policy = (): FetchPolicy => ({ allowLoopback: isDevelopmentIssuer(ctx.config.publicUrl), maxBytes: DOCUMENT_MAX_BYTES, timeoutMs: ctx.config.oauthClientMetadataTimeoutMs });

  async function fetchEntry(id: string, url: URL): Promise<Entry> {
    const now = () => ctx.clock.now();
    try {
      const fetched = await guardedFetch(url, policy());
      return remember(id, { until: now() + cacheLifetimeMs(fetched), metadata: documentMetadata(id, fetched.body) });
    } catch (err) {
      if (!(err instanceof DocumentRefused)) throw err;
      ctx.logger.info("oauth: client metadata document refused", { clientId: id, reason: err.message });
      return remember(id, { until: now() + NEGATIVE_CACHE_MS, refusal: err.message });
    }
  }

  return {
    /** The client metadata for a document URL; DocumentRefused (with the reason) when it cannot be used, AuthError RATE_LIMITED over budget. */
    async load(id: string): Promise<Record<string, unknown>> {
      const url = checkDocumentUrl(id, ctx.config.oauthClientMetadataHosts);
      checkFetchUrl(url, policy());
      let entry = cache.get(id);
      if (!entry || entry.until <= ctx.clock.now()) {
        let pending = inFlight.get(id);
        if (!pending) {
          const key = requestScope.getStore()?.key;
          if (key && ctx.config.rateLimits) await enforceLimit(ctx, "oauth-client-document-ip", key);
          pending = fetchEntry(id, url).finally(() => inFlight.delete(id));
          inFlight.set(id, pending);
        }
        entry = await pending;
      }
      if (entry.refusal) throw new DocumentRefused(entry.refusal);
      return entry.metadata!;
    },
  };
}
