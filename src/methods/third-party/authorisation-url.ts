import * as oidc from "openid-client";
import type { CoreContext } from "../../core/context.js";
import { badInput } from "../../core/errors.js";
import { resolveClientConfig } from "./client-config.js";
import { nonceForVerifier } from "./id-token.js";
import { normaliseProviders, selectClient, type Provider, type ProviderClient } from "./provider-config.js";
import type { ConnectedProvider } from "../../core/connected-providers.js";

export interface AuthorisationUrl { urlWithQueryParams: string; pkceCodeVerifier?: string }

/**
 * The provider and client a request names, or a 400 with the FDI message: a configured provider,
 * else one another room defines at run time (core/connected-providers.ts: an organization's
 * OpenID connection), checked as a configured one would be, always with PKCE (so the nonce
 * derived from the verifier binds its ID token to the browser that started).
 */
export async function findProviderClient(ctx: CoreContext, thirdPartyId: string, clientType?: string): Promise<{ provider: Provider; client: ProviderClient; connected?: ConnectedProvider }> {
  let provider = ctx.thirdParty.find(thirdPartyId);
  let connected: ConnectedProvider | undefined;
  if (!provider && ctx.connectedProviders) {
    connected = await ctx.connectedProviders.find(ctx, thirdPartyId);
    if (connected) provider = connectedProvider(ctx, connected);
  }
  if (!provider) throw badInput(`the provider ${thirdPartyId} could not be found in the configuration`);
  const client = selectClient(provider, clientType);
  if (!client) {
    throw badInput(clientType === undefined
      ? `the provider ${thirdPartyId} has several clients: please provide the clientType`
      : `the provider ${thirdPartyId} has no client of type ${clientType}`);
  }
  return { provider, client, connected };
}

function connectedProvider(ctx: CoreContext, c: ConnectedProvider): Provider {
  const issuer = c.oidc.issuer.replace(/\/+$/, "");
  try {
    return normaliseProviders([{
      thirdPartyId: c.id, name: c.name, oidcDiscoveryEndpoint: `${issuer}/.well-known/openid-configuration`,
      clientId: c.oidc.clientId, clientSecret: c.oidc.clientSecret, scope: [...c.oidc.scope], forcePKCE: true,
    }], ctx.config.mode)[0];
  } catch (err) {
    throw badInput(`the provider ${c.id} cannot be used: ${(err as Error).message}`);
  }
}

/**
 * Builds the URL the browser is sent to (FDI notes §10.1). PKCE S256 is used when the client has
 * no secret, when forcePKCE is set, or when the provider advertises S256; then the verifier goes
 * back to the frontend, which returns it on /signinup. No `state`: the frontend adds and checks
 * its own. With PKCE and an OpenID scope a nonce derived from the verifier is sent too.
 */
export async function getAuthorisationUrl(ctx: CoreContext, input: { thirdPartyId: string; redirectURIOnProviderDashboard: string; clientType?: string }): Promise<AuthorisationUrl> {
  const { provider, client } = await findProviderClient(ctx, input.thirdPartyId, input.clientType);
  const config = await resolveClientConfig(ctx, provider, client);
  const meta = config.serverMetadata();
  const params: Record<string, string> = { client_id: client.clientId, redirect_uri: input.redirectURIOnProviderDashboard, response_type: "code" };
  if (client.scope.length) params.scope = client.scope.join(" ");

  const isPublic = !client.clientSecret && !provider.hooks.clientSecret;
  let pkceCodeVerifier: string | undefined;
  if (isPublic || client.forcePKCE || meta.supportsPKCE("S256")) {
    pkceCodeVerifier = oidc.randomPKCECodeVerifier(); // 43 base64url chars = 256 bits (RFC 7636: 43–128)
    params.code_challenge = await oidc.calculatePKCECodeChallenge(pkceCodeVerifier);
    params.code_challenge_method = "S256";
    if (provider.nonce && meta.jwks_uri && client.scope.includes("openid")) params.nonce = nonceForVerifier(pkceCodeVerifier);
  }
  const url = oidc.buildAuthorizationUrl(config, params);
  const q = url.searchParams;
  for (const [k, v] of Object.entries(provider.authorizationEndpointQueryParams)) {
    if (v === null) q.delete(k);
    else q.set(k, v);
  }
  return { urlWithQueryParams: url.toString(), ...(pkceCodeVerifier ? { pkceCodeVerifier } : {}) };
}
