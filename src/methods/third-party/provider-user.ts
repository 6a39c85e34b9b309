import * as oidc from "openid-client";
import type { CoreContext } from "../../core/context.js";
import { canonicalEmail } from "../../core/emails.js";
import { badInput } from "../../core/errors.js";
import { hasIssuer } from "./client-config.js";
import { nonceForVerifier } from "./id-token.js";
import { toAuthError } from "./oidc-errors.js";
import type { FieldMap, Provider, ProviderClient } from "./provider-config.js";
import { exactRedirectURI, providerError } from "./provider-fetch.js";

export interface OAuthTokens { access_token?: string; id_token?: string }
/** Who signed in, as the provider says. */
export interface ProviderUser { userId: string; email?: string; emailVerified: boolean }
/** Tokens of a code exchange, with the ID token's claims once openid-client has checked them. */
export interface ExchangedTokens { tokens: OAuthTokens; idClaims?: Record<string, unknown> }

/**
 * Exchanges an authorization code through openid-client (form-encoded, FDI notes §10.2, with the
 * PKCE verifier), which checks the token response and the ID token: signature through the
 * provider's JWKS, `iss`, `aud`, `exp`, and the nonce derived from the verifier when one was sent.
 * A code the provider rejects (used, expired, wrong PKCE verifier or redirect URI) is a 400; a
 * provider that refuses our client or fails is a 502. Both name the provider. The ID token's times
 * are checked against the real clock: it was minted by the provider a moment ago.
 */
export async function exchangeCode(ctx: CoreContext, provider: Provider, client: ProviderClient, config: oidc.Configuration, input: { code: string; redirectURI: string; codeVerifier?: string; iss?: string }): Promise<ExchangedTokens> {
  // Only what we check goes in: the code, and `iss` (RFC 9207 mix-up defence) when the frontend
  // forwarded it and we know the issuer. A callback without `iss` is not refused (as before
  // openid-client): openid-client would demand it of providers that advertise it, so the expected
  // value stands in. `state` belongs to the frontend, which generated it and checks it (SuperTokens
  // SDKs), so openid-client is told to skip it.
  if (!URL.canParse(input.redirectURI)) throw badInput("redirectURIOnProviderDashboard must be an absolute URL");
  const callback = new URL(input.redirectURI);
  callback.search = "";
  callback.searchParams.set("code", input.code);
  if (hasIssuer(provider)) callback.searchParams.set("iss", input.iss ?? config.serverMetadata().issuer);
  const expectedNonce = input.codeVerifier && provider.nonce && config.serverMetadata().jwks_uri && client.scope.includes("openid") ? nonceForVerifier(input.codeVerifier) : undefined;
  try {
    const res = await exactRedirectURI.run(input.redirectURI, () =>
      oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: input.codeVerifier, expectedNonce, expectedState: oidc.skipStateCheck }, provider.tokenEndpointBodyParams));
    return { tokens: { access_token: res.access_token, id_token: res.id_token }, idClaims: res.claims() };
  } catch (err) {
    throw toAuthError(ctx, provider, err, "token endpoint");
  }
}

/** Reads a dotted path ("user.profile.email") from a JSON object. */
function readPath(o: unknown, path: string): unknown {
  let cur = o;
  for (const part of path.split(".")) {
    if (!cur || typeof cur !== "object" || !Object.prototype.hasOwnProperty.call(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function mapFields(o: Record<string, unknown>, map: FieldMap): { userId?: string; email?: string; emailVerified?: boolean } {
  const id = readPath(o, map.userId);
  const email = readPath(o, map.email);
  const verified = readPath(o, map.emailVerified);
  return {
    userId: (typeof id === "string" && id !== "") || (typeof id === "number" && Number.isFinite(id)) ? String(id) : undefined,
    email: typeof email === "string" && email.trim() !== "" ? email : undefined,
    emailVerified: verified === undefined ? undefined : verified === true || verified === "true",
  };
}

/**
 * Learns who signed in from the ID token's checked claims and the user-info endpoint, then the
 * field maps; ID-token values win.
 */
export async function fetchProviderUser(ctx: CoreContext, provider: Provider, config: oidc.Configuration, tokens: OAuthTokens, idClaims: Record<string, unknown> | undefined): Promise<ProviderUser> {
  const fromId: ReturnType<typeof mapFields> = idClaims ? mapFields(idClaims, provider.userInfoMap.fromIdTokenPayload) : {};
  let fromApi: ReturnType<typeof mapFields> = {};
  const endpoint = config.serverMetadata().userinfo_endpoint;
  if (tokens.access_token && endpoint) {
    const info = await fetchUserInfo(ctx, provider, config, endpoint, tokens.access_token, idClaims);
    fromApi = mapFields(info, provider.userInfoMap.fromUserInfoAPI);
    // OpenID Connect Core 5.3.2: the user-info subject must be the ID token's, or the two tokens
    // describe different people (a substituted access token). openid-client checks `sub`; this
    // checks the mapped ids of providers whose ids live elsewhere.
    if (fromId.userId && fromApi.userId && fromId.userId !== fromApi.userId) {
      throw badInput(`The provider ${provider.id} returned user info for another user than the ID token`);
    }
  }
  const userId = fromId.userId ?? fromApi.userId;
  if (!userId) throw providerError(ctx, provider, `The provider ${provider.id} did not say who signed in (no user id)`);
  return { userId, ...pickEmail(fromId, fromApi) };
}

/**
 * The email and whether it is verified. The ID token's email wins; its verified flag must speak
 * for that same address: a flag from the other source counts only when that source reports no
 * address or the same one (else `email_verified` for B would mark A verified).
 */
function pickEmail(fromId: ReturnType<typeof mapFields>, fromApi: ReturnType<typeof mapFields>): { email?: string; emailVerified: boolean } {
  const [main, other] = fromId.email !== undefined ? [fromId, fromApi] : [fromApi, fromId];
  const otherSpeaksForIt = other.email === undefined || (main.email !== undefined && canonicalEmail(other.email) === canonicalEmail(main.email));
  return { email: main.email, emailVerified: main.emailVerified ?? (otherSpeaksForIt ? other.emailVerified : undefined) ?? false };
}

/**
 * An OpenID user-info endpoint (ids in `sub`) goes through openid-client's fetchUserInfo, which
 * requires the ID token's subject when there is one; other OAuth2 APIs (GitHub's /user, ids in
 * `id`) through fetchProtectedResource and our field maps. Both carry the provider's headers and
 * limits (provider-fetch.ts).
 */
async function fetchUserInfo(ctx: CoreContext, provider: Provider, config: oidc.Configuration, endpoint: string, accessToken: string, idClaims: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
  const get = async (target: string): Promise<unknown> => {
    try {
      return await (await oidc.fetchProtectedResource(config, accessToken, new URL(target), "GET")).json();
    } catch (err) {
      throw toAuthError(ctx, provider, err, "user-info endpoint");
    }
  };
  let info: unknown;
  if (provider.userInfoMap.fromUserInfoAPI.userId === "sub") {
    const sub = provider.userInfoMap.fromIdTokenPayload.userId === "sub" && typeof idClaims?.sub === "string" ? idClaims.sub : oidc.skipSubjectCheck;
    try { info = await oidc.fetchUserInfo(config, accessToken, sub); } catch (err) { throw toAuthError(ctx, provider, err, "user-info endpoint"); }
  } else {
    info = await get(endpoint);
  }
  if (!info || typeof info !== "object" || Array.isArray(info)) throw providerError(ctx, provider, `The provider ${provider.id} sent invalid user info`);
  return provider.hooks.extraUserInfo ? provider.hooks.extraUserInfo(get, info as Record<string, unknown>, endpoint) : (info as Record<string, unknown>);
}
