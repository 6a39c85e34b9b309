import type { CoreContext } from "../context.js";
import type { Provider } from "./provider-config.js";
import { callProvider, providerError } from "./provider-fetch.js";
import type { Endpoints } from "./registry.js";

/** How long a fetched discovery document is trusted before it is fetched again. */
const DISCOVERY_TTL_MS = 60 * 60_000;

/**
 * The provider's endpoints: configured ones win, the discovery document (fetched lazily, cached
 * per provider, shared by concurrent requests) fills the gaps. A failed fetch is not cached, so
 * the next request tries again.
 */
export async function resolveEndpoints(ctx: CoreContext, provider: Provider): Promise<Endpoints> {
  if (!provider.oidcDiscoveryEndpoint) {
    return {
      authorizationEndpoint: provider.authorizationEndpoint!,
      tokenEndpoint: provider.tokenEndpoint!,
      userInfoEndpoint: provider.userInfoEndpoint,
      jwksURI: provider.jwksURI,
      issuer: provider.issuer,
      codeChallengeMethods: [],
    };
  }
  const cache = ctx.thirdParty.discovery;
  const now = ctx.clock.now();
  const hit = cache.get(provider.id);
  if (hit && hit.expiresAt > now) return hit.endpoints;
  const endpoints = discover(ctx, provider);
  cache.set(provider.id, { expiresAt: now + DISCOVERY_TTL_MS, endpoints });
  endpoints.catch(() => { if (cache.get(provider.id)?.endpoints === endpoints) cache.delete(provider.id); });
  return endpoints;
}

async function discover(ctx: CoreContext, provider: Provider): Promise<Endpoints> {
  const what = "discovery endpoint";
  const { status, json } = await callProvider(ctx, provider, what, provider.oidcDiscoveryEndpoint!);
  if (status !== 200 || !json || typeof json !== "object") throw providerError(ctx, provider, `The provider ${provider.id} answered its ${what} with HTTP ${status}`);
  const doc = json as Record<string, unknown>;
  const url = (k: string): string | undefined => {
    const v = doc[k];
    if (v === undefined || v === null) return undefined;
    try {
      const u = new URL(String(v));
      if (u.protocol === "https:" || u.protocol === "http:") return u.toString();
    } catch { /* fall through */ }
    throw providerError(ctx, provider, `The provider ${provider.id} published an invalid ${k} in its discovery document`);
  };
  const endpoints: Endpoints = {
    authorizationEndpoint: provider.authorizationEndpoint ?? url("authorization_endpoint")!,
    tokenEndpoint: provider.tokenEndpoint ?? url("token_endpoint")!,
    userInfoEndpoint: provider.userInfoEndpoint ?? url("userinfo_endpoint"),
    jwksURI: provider.jwksURI ?? url("jwks_uri"),
    issuer: provider.issuer ?? (typeof doc.issuer === "string" ? doc.issuer : undefined),
    codeChallengeMethods: Array.isArray(doc.code_challenge_methods_supported) ? doc.code_challenge_methods_supported.filter((m): m is string => typeof m === "string") : [],
  };
  if (!endpoints.authorizationEndpoint || !endpoints.tokenEndpoint) throw providerError(ctx, provider, `The provider ${provider.id} has no authorization or token endpoint in its discovery document`);
  if (endpoints.jwksURI && !endpoints.issuer) throw providerError(ctx, provider, `The provider ${provider.id} has no issuer in its discovery document`);
  return endpoints;
}
