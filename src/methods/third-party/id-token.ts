import { createHash } from "node:crypto";
import { createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWTPayload } from "jose";
import type { CoreContext } from "../../core/context.js";
import { badIdToken } from "./oidc-errors.js";
import type { Provider, ProviderClient } from "./provider-config.js";
import { providerError } from "./provider-fetch.js";

/** Leeway for exp/nbf/iat against the provider's clock (security bar R9: at most 60 s). */
const CLOCK_TOLERANCE_S = 30;

/**
 * The nonce sent with an authorisation URL that uses PKCE: a hash of the verifier, so the
 * server stays stateless and an ID token only signs in the browser that holds the verifier
 * (domain-separated, so it never equals the S256 code challenge).
 */
export function nonceForVerifier(verifier: string): string {
  return createHash("sha256").update("authsvc-oidc-nonce:" + verifier).digest("base64url");
}

function jwksFor(ctx: CoreContext, provider: Provider, jwksURI: string) {
  const key = `${provider.id} ${jwksURI}`;
  let set = ctx.thirdParty.jwks.get(key);
  if (!set) {
    set = createRemoteJWKSet(new URL(jwksURI), { timeoutDuration: provider.timeoutMs, cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
    ctx.thirdParty.jwks.set(key, set);
  }
  return set;
}

/**
 * Verifies an ID token the frontend obtained itself (`oAuthTokens` of POST /signinup): signature
 * through the provider's JWKS, `iss`, `aud` = our client id, `azp`, `exp`/`nbf` against our clock.
 * A bad token is a 400 naming the provider; an unreachable JWKS is a 502.
 *
 * jose, not openid-client: openid-client v6 checks ID tokens only inside the grants it performs
 * (authorizationCodeGrant, exchangeCode in provider-user.ts) and has no public call for a token
 * that arrives without a token response; oauth4webapi's checks are bound to a token-endpoint
 * Response too.
 */
export async function verifyIdToken(ctx: CoreContext, provider: Provider, keys: { issuer: string; jwksURI: string }, client: ProviderClient, idToken: string): Promise<JWTPayload> {
  const bad = (why: string) => badIdToken(provider, why);
  let expectedIssuer = keys.issuer;
  if (provider.hooks.issuerFor) {
    let unverified: JWTPayload;
    try { unverified = decodeJwt(idToken); } catch { throw bad("it is not a JWT"); }
    const iss = provider.hooks.issuerFor(expectedIssuer, unverified);
    if (!iss) throw bad("its issuer cannot be checked");
    expectedIssuer = iss;
  }
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, jwksFor(ctx, provider, keys.jwksURI), {
      issuer: expectedIssuer,
      audience: client.clientId,
      currentDate: new Date(ctx.clock.now()),
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ["sub", "exp", "iat"],
    }));
  } catch (err) {
    if (err instanceof errors.JWTExpired) throw bad("it has expired");
    if (err instanceof errors.JWTClaimValidationFailed) throw bad(`its "${err.claim}" claim does not match`);
    if (err instanceof errors.JWSSignatureVerificationFailed) throw bad("its signature does not verify");
    if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys) throw bad("no key of the provider matches it");
    if (err instanceof errors.JWKSTimeout) throw providerError(ctx, provider, `The provider ${provider.id} did not answer its JWKS endpoint within ${provider.timeoutMs} ms`);
    if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) throw bad("its algorithm is not accepted");
    if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) throw bad("it is malformed");
    // Anything else came from fetching the key set (connection refused, bad JSON, HTTP error).
    throw providerError(ctx, provider, `Could not load the signing keys of the provider ${provider.id}`, { err: (err as Error).name });
  }
  // An `azp` naming another client means the token was issued to someone else.
  if (payload.azp !== undefined && payload.azp !== client.clientId) throw bad(`its "azp" claim does not match`);
  return payload;
}
