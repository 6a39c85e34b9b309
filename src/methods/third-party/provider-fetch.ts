import { AsyncLocalStorage } from "node:async_hooks";
import type { CustomFetch } from "openid-client";
import type { CoreContext } from "../../core/context.js";
import { AuthError, badInput } from "../../core/errors.js";
import type { Provider } from "./provider-config.js";

/** Largest provider response we read: discovery documents and JWKS are a few KiB. */
const MAX_BODY = 1024 * 1024;

/** The URLs a provider's calls go to, as far as known. */
export interface KnownUrls { discovery?: string; token?: string; userInfo?: string; jwks?: string }

/**
 * The redirect URI of the code exchange under way, exactly as the frontend registered it:
 * openid-client sends the callback URL without its query, which would not match a registered
 * redirect URI that has one (its documented remedy is this customFetch correction).
 */
export const exactRedirectURI = new AsyncLocalStorage<string>();

/** Which of a provider's endpoints a call goes to; names it in our error messages. */
export type ProviderEndpoint = "discovery endpoint" | "token endpoint" | "user-info endpoint" | "JWKS endpoint";

/** A PROVIDER_ERROR (502) naming the provider; the detail goes to the log, never a secret. */
export function providerError(ctx: CoreContext, provider: Provider, message: string, detail?: Record<string, unknown>): AuthError {
  ctx.logger.warn("third-party provider call failed", { provider: provider.id, reason: message, ...detail });
  return new AuthError("PROVIDER_ERROR", message);
}

/**
 * The `customFetch` openid-client makes every call to a provider through: bounded in time (the
 * provider's timeoutMs covers connect, headers and body, whatever openid-client's own timeout) and
 * in size, with the provider's user-info headers and query. It also judges the answer, so errors
 * keep our messages: network failures, timeouts and unreadable bodies are a 502 naming the
 * provider; a refused code or access token a 400. openid-client then only sees answers worth
 * checking (token response and ID token, user info and its subject, discovery metadata, JWKS).
 * `known` gives the provider's token, user-info and JWKS URLs (once discovered); any other URL is
 * the discovery document or a further user-info resource (GitHub's /user/emails).
 */
export function createProviderFetch(ctx: CoreContext, provider: Provider, known: () => KnownUrls): CustomFetch {
  return async (url, init) => {
    const target = new URL(url);
    const urls = known();
    const is = (u: string | undefined) => u !== undefined && new URL(u).href === target.href;
    const what: ProviderEndpoint = is(urls.token) ? "token endpoint" : is(urls.jwks) ? "JWKS endpoint" : is(urls.discovery) ? "discovery endpoint" : "user-info endpoint";
    const headers = new Headers(init.headers);
    if (what === "user-info endpoint") {
      for (const [k, v] of Object.entries(provider.userInfoEndpointHeaders)) headers.set(k, v);
      if (is(urls.userInfo)) for (const [k, v] of Object.entries(provider.userInfoEndpointQueryParams)) target.searchParams.set(k, v);
    }
    const redirectURI = exactRedirectURI.getStore();
    if (what === "token endpoint" && redirectURI !== undefined && init.body instanceof URLSearchParams) init.body.set("redirect_uri", redirectURI);
    let res: Response;
    let text: string;
    try {
      res = await fetch(target, {
        method: init.method,
        body: init.body as RequestInit["body"],
        headers,
        // A token endpoint has no business redirecting a POST that carries a secret.
        redirect: init.method === "POST" ? "error" : "follow",
        signal: AbortSignal.timeout(provider.timeoutMs),
      });
      text = await readLimited(res);
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      if (e.name === "TimeoutError" || e.name === "AbortError") {
        throw providerError(ctx, provider, `The provider ${provider.id} did not answer its ${what} within ${provider.timeoutMs} ms`);
      }
      if (e.message === "response too large") throw providerError(ctx, provider, `The provider ${provider.id} sent an oversized response from its ${what}`);
      if (what === "JWKS endpoint") throw providerError(ctx, provider, `Could not load the signing keys of the provider ${provider.id}`, { code: e.cause?.code ?? e.name });
      throw providerError(ctx, provider, `Could not reach the provider ${provider.id} (${what})`, { code: e.cause?.code ?? e.name });
    }
    return judge(ctx, provider, what, res, text);
  };
}

/** Turns the provider's answer into our error, or into a clean JSON response for openid-client. */
function judge(ctx: CoreContext, provider: Provider, what: ProviderEndpoint, res: Response, text: string): Response {
  const type = res.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
  if (what === "user-info endpoint" && type === "application/jwt" && res.status === 200) {
    return new Response(text, { status: 200, headers: { "content-type": type } }); // a signed user-info answer: openid-client checks it
  }
  let json: unknown;
  if (text.trim() !== "") {
    try { json = JSON.parse(text); } catch {
      // GitHub answers the token endpoint form-encoded unless told otherwise; accept that shape.
      json = what === "token endpoint" && /^[\w.-]+=/.test(text) ? Object.fromEntries(new URLSearchParams(text)) : undefined;
    }
  }
  const status = res.status;
  if (what === "token endpoint") {
    const code = oauthErrorCode(json); // GitHub reports errors with HTTP 200
    if (status >= 400 || code) {
      if (code === "invalid_grant" || (code === "invalid_request" && status < 500) || code === "bad_verification_code") {
        throw badInput(`The provider ${provider.id} rejected the authorization code (${code})`);
      }
      throw providerError(ctx, provider, `The provider ${provider.id} refused the token request (${code ?? `HTTP ${status}`})`, { status });
    }
  } else if (what === "user-info endpoint") {
    if (status === 401 || status === 403) throw new AuthError("BAD_INPUT", `The provider ${provider.id} rejected the access token`);
    if (status !== 200) throw providerError(ctx, provider, `The provider ${provider.id} answered its user-info endpoint with HTTP ${status}`);
  } else if (status !== 200) {
    if (what === "JWKS endpoint") throw providerError(ctx, provider, `Could not load the signing keys of the provider ${provider.id}`, { status });
    throw providerError(ctx, provider, `The provider ${provider.id} answered its ${what} with HTTP ${status}`);
  }
  if (!json || typeof json !== "object") throw providerError(ctx, provider, `The provider ${provider.id} sent an invalid response from its ${what}`, { status });
  if (what === "token endpoint") json = normaliseTokenResponse(ctx, provider, json as Record<string, unknown>);
  // The content type is what we parsed, so a provider's text/plain JSON is still read as JSON.
  return new Response(JSON.stringify(json), { status, headers: { "content-type": "application/json" } });
}

/**
 * Token responses as openid-client expects them. Providers that omit `token_type` (LinkedIn) send
 * bearer tokens. An `id_token` is dropped when the provider has no keys to check it (a plain OAuth2
 * provider that asks the `openid` scope): we never read it, and openid-client would reject it for
 * an issuer we do not know.
 */
function normaliseTokenResponse(ctx: CoreContext, provider: Provider, tokens: Record<string, unknown>): Record<string, unknown> {
  if (typeof tokens.access_token !== "string" || tokens.access_token === "") throw providerError(ctx, provider, `The provider ${provider.id} returned no tokens`);
  const out: Record<string, unknown> = { ...tokens, token_type: typeof tokens.token_type === "string" ? tokens.token_type : "bearer" };
  if (!provider.oidcDiscoveryEndpoint && !provider.jwksURI) delete out.id_token;
  return out;
}

async function readLimited(res: Response): Promise<string> {
  if (!res.body) return "";
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY) { await res.body.cancel(); throw new Error("response too large"); }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY) { await reader.cancel(); throw new Error("response too large"); }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** An OAuth2 error code from a provider body, if it looks like one (never free text). */
function oauthErrorCode(json: unknown): string | undefined {
  const e = json && typeof json === "object" ? (json as Record<string, unknown>).error : undefined;
  return typeof e === "string" && /^[a-z0-9_.-]{1,64}$/i.test(e) ? e : undefined;
}
