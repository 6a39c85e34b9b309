import type { createRemoteJWKSet } from "jose";
import { normaliseProviders, type Provider } from "./provider-config.js";

export interface Endpoints {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userInfoEndpoint?: string;
  jwksURI?: string;
  issuer?: string;
  codeChallengeMethods: string[];
}

/**
 * The configured providers plus their per-process caches (discovery documents, JWKS). One per
 * app, so tests never share a cache.
 */
export interface ThirdPartyRegistry {
  providers: readonly Provider[];
  find(thirdPartyId: string): Provider | undefined;
  discovery: Map<string, { expiresAt: number; endpoints: Promise<Endpoints> }>;
  jwks: Map<string, ReturnType<typeof createRemoteJWKSet>>;
}

/** Validates the configured providers (throws naming provider and field) and builds the registry. */
export function createThirdPartyRegistry(rawProviders: readonly unknown[], mode: string): ThirdPartyRegistry {
  const providers = normaliseProviders(rawProviders, mode);
  const byId = new Map(providers.map((p) => [p.id, p]));
  return { providers, find: (id) => byId.get(id), discovery: new Map(), jwks: new Map() };
}
