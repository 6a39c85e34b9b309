import { createHash } from "node:crypto";
import { createSecretToken } from "../../util/random.js";
import type { CoreContext } from "../context.js";
import { badInput } from "../errors.js";
import { resolveEndpoints } from "./discovery.js";
import { nonceForVerifier } from "./id-token.js";
import { selectClient, type Provider, type ProviderClient } from "./provider-config.js";

export interface AuthorisationUrl { urlWithQueryParams: string; pkceCodeVerifier?: string }

/** The provider and client a request names, or a 400 with the FDI message. */
export function findProviderClient(ctx: CoreContext, thirdPartyId: string, clientType?: string): { provider: Provider; client: ProviderClient } {
  const provider = ctx.thirdParty.find(thirdPartyId);
  if (!provider) throw badInput(`the provider ${thirdPartyId} could not be found in the configuration`);
  const client = selectClient(provider, clientType);
  if (!client) {
    throw badInput(clientType === undefined
      ? `the provider ${thirdPartyId} has several clients: please provide the clientType`
      : `the provider ${thirdPartyId} has no client of type ${clientType}`);
  }
  return { provider, client };
}

/**
 * Builds the URL the browser is sent to (FDI notes §10.1). PKCE S256 is used when the client has
 * no secret, when forcePKCE is set, or when the provider advertises S256; then the verifier goes
 * back to the frontend, which returns it on /signinup. No `state`: the frontend adds and checks
 * its own. With PKCE and an OpenID scope a nonce derived from the verifier is sent too.
 */
export async function getAuthorisationUrl(ctx: CoreContext, input: { thirdPartyId: string; redirectURIOnProviderDashboard: string; clientType?: string }): Promise<AuthorisationUrl> {
  const { provider, client } = findProviderClient(ctx, input.thirdPartyId, input.clientType);
  const endpoints = await resolveEndpoints(ctx, provider);
  const url = new URL(endpoints.authorizationEndpoint);
  const q = url.searchParams;
  q.set("client_id", client.clientId);
  q.set("redirect_uri", input.redirectURIOnProviderDashboard);
  q.set("response_type", "code");
  if (client.scope.length) q.set("scope", client.scope.join(" "));

  const isPublic = !client.clientSecret && !provider.hooks.clientSecret;
  let pkceCodeVerifier: string | undefined;
  if (isPublic || client.forcePKCE || endpoints.codeChallengeMethods.includes("S256")) {
    pkceCodeVerifier = createSecretToken(); // 43 base64url chars = 256 bits (RFC 7636: 43–128)
    q.set("code_challenge", createHash("sha256").update(pkceCodeVerifier).digest("base64url"));
    q.set("code_challenge_method", "S256");
    if (provider.nonce && endpoints.jwksURI && client.scope.includes("openid")) q.set("nonce", nonceForVerifier(pkceCodeVerifier));
  }
  for (const [k, v] of Object.entries(provider.authorizationEndpointQueryParams)) {
    if (v === null) q.delete(k);
    else q.set(k, v);
  }
  return { urlWithQueryParams: url.toString(), ...(pkceCodeVerifier ? { pkceCodeVerifier } : {}) };
}
