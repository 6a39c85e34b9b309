import type { createRemoteJWKSet } from "jose";
import type { Configuration } from "openid-client";
import { normaliseProviders, type Provider } from "./provider-config.js";

/**
 * The configured providers plus their per-process caches (openid-client configurations, keyed by
 * provider and client type, holding the discovery documents; jose key sets). One per
 * app, so tests never share a cache.
 */
export interface ThirdPartyRegistry {
  providers: readonly Provider[];
  find(thirdPartyId: string): Provider | undefined;
  configs: Map<string, { expiresAt: number; config: Promise<Configuration> }>;
  jwks: Map<string, ReturnType<typeof createRemoteJWKSet>>;
}

declare module "../../core/context.js" {
  interface RoomState {
    /** Configured third-party providers and their discovery/JWKS caches. */
    thirdParty: ThirdPartyRegistry;
  }
}

/** Validates the configured providers (throws naming provider and field) and builds the registry. */
export function createThirdPartyRegistry(rawProviders: readonly unknown[], mode: string): ThirdPartyRegistry {
  const providers = normaliseProviders(rawProviders, mode);
  const byId = new Map(providers.map((p) => [p.id, p]));
  return { providers, find: (id) => byId.get(id), configs: new Map(), jwks: new Map() };
}
