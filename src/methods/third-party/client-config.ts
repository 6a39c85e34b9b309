import * as oidc from "openid-client";
import type { CoreContext } from "../../core/context.js";
import { toAuthError } from "./oidc-errors.js";
import type { Provider, ProviderClient } from "./provider-config.js";
import { createProviderFetch, providerError, type KnownUrls } from "./provider-fetch.js";

/** How long a fetched discovery document is trusted before it is fetched again. */
const DISCOVERY_TTL_MS = 60 * 60_000;
const WELL_KNOWN = "/.well-known/openid-configuration";
/** ID-token algorithms a provider without a discovery document may use: any asymmetric JWS. */
const ASYMMETRIC_ALGS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "Ed25519", "EdDSA"];

/**
 * The openid-client Configuration of one client of a provider: from the discovery document
 * (fetched lazily, cached per provider and client, shared by concurrent requests; configured
 * endpoints win) or from the configured endpoints of a plain OAuth2 provider. A failed discovery is
 * not cached, so the next request tries again.
 */
export async function resolveClientConfig(ctx: CoreContext, provider: Provider, client: ProviderClient): Promise<oidc.Configuration> {
  const cache = ctx.thirdParty.configs;
  const key = `${provider.id}\n${client.clientType ?? ""}`;
  const now = ctx.clock.now();
  const hit = cache.get(key);
  if (hit && hit.expiresAt > now) return hit.config;
  const config = createClientConfig(ctx, provider, client);
  cache.set(key, { expiresAt: provider.oidcDiscoveryEndpoint ? now + DISCOVERY_TTL_MS : Infinity, config });
  config.catch(() => { if (cache.get(key)?.config === config) cache.delete(key); });
  return config;
}

/** Whether the provider's issuer is known (a plain OAuth2 provider without `issuer` has none). */
export function hasIssuer(provider: Provider): boolean {
  return Boolean(provider.oidcDiscoveryEndpoint || provider.issuer);
}

async function createClientConfig(ctx: CoreContext, provider: Provider, client: ProviderClient): Promise<oidc.Configuration> {
  let urls: KnownUrls = { discovery: provider.oidcDiscoveryEndpoint };
  const customFetch = createProviderFetch(ctx, provider, () => urls);
  const auth = clientAuthFor(ctx, provider, client);
  // Plain http only where the configuration allows it: a provider configured with http URLs
  // (production accepts those for loopback only, provider-config.ts).
  const insecure = [provider.oidcDiscoveryEndpoint, provider.authorizationEndpoint, provider.tokenEndpoint, provider.userInfoEndpoint, provider.jwksURI].some((u) => u?.startsWith("http:"));
  // Our timeout (provider.timeoutMs, in customFetch) governs; openid-client's is a backstop.
  const timeout = Math.ceil(provider.timeoutMs / 1000) + 1;
  let config: oidc.Configuration;
  if (provider.oidcDiscoveryEndpoint) {
    try {
      config = await oidc.discovery(discoveryServer(provider.oidcDiscoveryEndpoint), client.clientId, undefined, auth, {
        [oidc.customFetch]: customFetch, timeout, execute: insecure ? [oidc.allowInsecureRequests] : [],
      });
    } catch (err) {
      throw toAuthError(ctx, provider, err, "discovery endpoint");
    }
    const overrides = configuredEndpoints(provider);
    // Only with overrides is the metadata rebuilt: discovery's own Configuration keeps openid-client's
    // handling of Microsoft's multi-tenant issuer template.
    if (Object.keys(overrides).length) config = new oidc.Configuration({ ...config.serverMetadata(), ...overrides }, client.clientId, undefined, auth);
  } else {
    config = new oidc.Configuration({
      // Never compared: without an issuer there are no ID tokens to check (provider-fetch.ts drops
      // them) and the callback's `iss` is not passed on (provider-user.ts).
      issuer: provider.issuer ?? `urn:authsvc:provider:${provider.id}`,
      ...configuredEndpoints(provider),
      id_token_signing_alg_values_supported: ASYMMETRIC_ALGS,
    }, client.clientId, undefined, auth);
  }
  const meta = config.serverMetadata();
  checkEndpoints(ctx, provider, meta);
  config[oidc.customFetch] = customFetch;
  config.timeout = timeout;
  if (insecure) oidc.allowInsecureRequests(config);
  // ID tokens from the token endpoint are signature-checked too, as before openid-client: a
  // provider's compromised TLS terminator cannot mint identities.
  if (meta.jwks_uri) oidc.enableNonRepudiationChecks(config);
  urls = { discovery: provider.oidcDiscoveryEndpoint, token: meta.token_endpoint, userInfo: meta.userinfo_endpoint, jwks: meta.jwks_uri };
  return config;
}

/**
 * discovery() checks the published issuer against the URL the document was found under (OpenID
 * Connect Discovery §4.3) when given the issuer, so a standard discovery URL is passed as its issuer.
 */
function discoveryServer(endpoint: string): URL {
  return endpoint.endsWith(WELL_KNOWN) ? new URL(endpoint.slice(0, -WELL_KNOWN.length)) : new URL(endpoint);
}

function configuredEndpoints(p: Provider): Partial<oidc.ServerMetadata> {
  const all = { authorization_endpoint: p.authorizationEndpoint, token_endpoint: p.tokenEndpoint, userinfo_endpoint: p.userInfoEndpoint, jwks_uri: p.jwksURI, issuer: p.issuer };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
}

function checkEndpoints(ctx: CoreContext, provider: Provider, meta: oidc.ServerMetadata): void {
  for (const k of ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri"] as const) {
    const v = meta[k];
    if (v === undefined || v === null) continue;
    try {
      const u = new URL(String(v));
      if (u.protocol === "https:" || u.protocol === "http:") continue;
    } catch { /* fall through */ }
    throw providerError(ctx, provider, `The provider ${provider.id} published an invalid ${k} in its discovery document`);
  }
  if (!meta.authorization_endpoint || !meta.token_endpoint) throw providerError(ctx, provider, `The provider ${provider.id} has no authorization or token endpoint in its discovery document`);
}

/**
 * Client authentication at the token endpoint, per request: Apple's secret is a JWT signed anew
 * (presets.ts); public clients send only their id.
 */
function clientAuthFor(ctx: CoreContext, provider: Provider, client: ProviderClient): oidc.ClientAuth {
  return async (as, c, body, headers) => {
    const secret = provider.hooks.clientSecret ? await provider.hooks.clientSecret(client, ctx.clock.now()) : client.clientSecret;
    const auth = !secret ? oidc.None() : provider.tokenEndpointAuthMethod === "client_secret_basic" ? oidc.ClientSecretBasic(secret) : oidc.ClientSecretPost(secret);
    return auth(as, c, body, headers);
  };
}
