import { ClientError } from "openid-client";
import type { CoreContext } from "../../core/context.js";
import { AuthError } from "../../core/errors.js";
import type { Provider } from "./provider-config.js";
import { providerError, type ProviderEndpoint } from "./provider-fetch.js";

/** The 400 for an ID token that fails a check; the same wording as the oAuthTokens path (id-token.ts). */
export function badIdToken(provider: Provider, why: string): AuthError {
  return new AuthError("BAD_INPUT", `The ID token from the provider ${provider.id} is invalid: ${why}`);
}

/**
 * Maps what openid-client throws to our errors, keeping today's messages: our own errors (thrown by
 * the provider fetch, provider-fetch.ts) come back unwrapped; a failed ID-token check is a 400
 * naming the check; a user-info subject that differs from the ID token's is a 400; anything else
 * the provider sent that does not pass is a 502 naming the provider and the endpoint.
 */
export function toAuthError(ctx: CoreContext, provider: Provider, err: unknown, what: ProviderEndpoint): AuthError {
  if (err instanceof AuthError) return err;
  if (!(err instanceof Error)) return providerError(ctx, provider, `The provider ${provider.id} sent an invalid response from its ${what}`);
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof AuthError) return cause;
  // Codes are oauth4webapi's (openid-client passes them through on ClientError.code).
  const code = err instanceof ClientError ? err.code : undefined;
  const inner = cause instanceof Error ? cause : undefined; // oauth4webapi's error, when wrapped
  const detail = (inner as { cause?: { claim?: string; attribute?: string } } | undefined)?.cause;
  const message = inner?.message ?? err.message;

  if (what === "discovery endpoint") {
    if (code === "OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED" || (code === "OAUTH_INVALID_RESPONSE" && /"issuer"/.test(message))) {
      return providerError(ctx, provider, code === "OAUTH_INVALID_RESPONSE"
        ? `The provider ${provider.id} has no issuer in its discovery document`
        : `The provider ${provider.id} published an invalid issuer in its discovery document`);
    }
  }
  if (what === "user-info endpoint" && code === "OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED" && detail?.attribute === "sub") {
    // OpenID Connect Core 5.3.2: the user-info subject must be the ID token's, or the two tokens
    // describe different people (a substituted access token).
    return new AuthError("BAD_INPUT", `The provider ${provider.id} returned user info for another user than the ID token`);
  }
  if (what === "token endpoint") {
    // RFC 9207: the callback names another issuer, so the code may be another provider's (mix-up).
    if (/"iss" \(issuer\) response parameter/.test(message)) return new AuthError("BAD_INPUT", `The provider ${provider.id} did not issue this authorization response (iss does not match)`);
    if (code === "OAUTH_JWT_TIMESTAMP_CHECK_FAILED") return badIdToken(provider, detail?.claim === "exp" ? "it has expired" : `its "${detail?.claim}" claim does not match`);
    if (code === "OAUTH_JWT_CLAIM_COMPARISON_FAILED") return badIdToken(provider, `its "${detail?.claim}" claim does not match`);
    if (code === "OAUTH_KEY_SELECTION_FAILED") return badIdToken(provider, "no key of the provider matches it");
    if (/signature verification failed/.test(message)) return badIdToken(provider, "its signature does not verify");
    if (/"alg"|JWS algorithm/.test(message)) return badIdToken(provider, "its algorithm is not accepted");
    const missing = /^JWT "(\w+)" .* claim missing$/.exec(message);
    if (missing) return badIdToken(provider, `its "${missing[1]}" claim does not match`);
    if (/JWT|ID Token/.test(message)) return badIdToken(provider, "it is malformed");
  }
  if (code === "OAUTH_HTTP_REQUEST_FORBIDDEN") return providerError(ctx, provider, `The provider ${provider.id} uses plain http for its ${what}, allowed only for providers configured with http URLs`);
  return providerError(ctx, provider, `The provider ${provider.id} sent an invalid response from its ${what}`, { reason: message });
}
