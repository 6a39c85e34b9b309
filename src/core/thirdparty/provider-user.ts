import type { CoreContext } from "../context.js";
import { canonicalEmail } from "../emails.js";
import { AuthError, badInput } from "../errors.js";
import { nonceForVerifier, verifyIdToken } from "./id-token.js";
import type { FieldMap, Provider, ProviderClient } from "./provider-config.js";
import { callProvider, oauthErrorCode, providerError } from "./provider-fetch.js";
import type { Endpoints } from "./registry.js";

export interface OAuthTokens { access_token?: string; id_token?: string }
/** Who signed in, as the provider says. */
export interface ProviderUser { userId: string; email?: string; emailVerified: boolean }

/**
 * Exchanges an authorization code at the token endpoint (form-encoded, FDI notes §10.2). A code the
 * provider rejects (used, expired, wrong PKCE verifier or redirect URI) is a 400; a provider that
 * refuses our client or fails is a 502. Both name the provider.
 */
export async function exchangeCode(ctx: CoreContext, provider: Provider, client: ProviderClient, endpoints: Endpoints, input: { code: string; redirectURI: string; codeVerifier?: string }): Promise<OAuthTokens> {
  const body = new URLSearchParams({ client_id: client.clientId, redirect_uri: input.redirectURI, code: input.code, grant_type: "authorization_code" });
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  const secret = provider.hooks.clientSecret ? await provider.hooks.clientSecret(client, ctx.clock.now()) : client.clientSecret;
  if (secret && provider.tokenEndpointAuthMethod === "client_secret_basic") {
    headers.authorization = "Basic " + Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(secret)}`).toString("base64");
  } else if (secret) body.set("client_secret", secret);
  if (input.codeVerifier) body.set("code_verifier", input.codeVerifier);
  for (const [k, v] of Object.entries(provider.tokenEndpointBodyParams)) body.set(k, v);

  const { status, json } = await callProvider(ctx, provider, "token endpoint", endpoints.tokenEndpoint, { method: "POST", headers, body: body.toString() });
  const code = oauthErrorCode(json); // GitHub reports errors with HTTP 200
  if (status >= 400 || code) {
    if (code === "invalid_grant" || (code === "invalid_request" && status < 500) || code === "bad_verification_code") {
      throw badInput(`The provider ${provider.id} rejected the authorization code (${code})`);
    }
    throw providerError(ctx, provider, `The provider ${provider.id} refused the token request (${code ?? `HTTP ${status}`})`, { status });
  }
  const tokens = json as Record<string, unknown>;
  const out: OAuthTokens = {};
  if (typeof tokens.access_token === "string") out.access_token = tokens.access_token;
  if (typeof tokens.id_token === "string") out.id_token = tokens.id_token;
  if (!out.access_token && !out.id_token) throw providerError(ctx, provider, `The provider ${provider.id} returned no tokens`);
  return out;
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
 * Learns who signed in from the tokens: the ID token (verified) and the user-info endpoint, then
 * the field maps; ID-token values win. With a verifier the ID token must carry our nonce.
 */
export async function fetchProviderUser(ctx: CoreContext, provider: Provider, client: ProviderClient, endpoints: Endpoints, tokens: OAuthTokens, opts: { codeVerifier?: string }): Promise<ProviderUser> {
  let fromId: ReturnType<typeof mapFields> = {};
  if (tokens.id_token && endpoints.jwksURI) {
    const nonce = opts.codeVerifier && provider.nonce && client.scope.includes("openid") ? nonceForVerifier(opts.codeVerifier) : undefined;
    const payload = await verifyIdToken(ctx, provider, endpoints, client, tokens.id_token, nonce);
    fromId = mapFields(payload as Record<string, unknown>, provider.userInfoMap.fromIdTokenPayload);
  }
  let fromApi: ReturnType<typeof mapFields> = {};
  if (tokens.access_token && endpoints.userInfoEndpoint) {
    const info = await fetchUserInfo(ctx, provider, endpoints.userInfoEndpoint, tokens.access_token);
    fromApi = mapFields(info, provider.userInfoMap.fromUserInfoAPI);
    // OpenID Connect Core 5.3.2: the user-info subject must be the ID token's, or the two tokens
    // describe different people (a substituted access token).
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

async function fetchUserInfo(ctx: CoreContext, provider: Provider, endpoint: string, accessToken: string): Promise<Record<string, unknown>> {
  const get = async (target: string): Promise<unknown> => {
    const u = new URL(target);
    if (target === endpoint) for (const [k, v] of Object.entries(provider.userInfoEndpointQueryParams)) u.searchParams.set(k, v);
    const { status, json } = await callProvider(ctx, provider, "user-info endpoint", u.toString(), {
      headers: { ...provider.userInfoEndpointHeaders, authorization: `Bearer ${accessToken}` },
    });
    if (status === 401 || status === 403) throw new AuthError("BAD_INPUT", `The provider ${provider.id} rejected the access token`);
    if (status !== 200) throw providerError(ctx, provider, `The provider ${provider.id} answered its user-info endpoint with HTTP ${status}`);
    return json;
  };
  const info = await get(endpoint);
  if (!info || typeof info !== "object" || Array.isArray(info)) throw providerError(ctx, provider, `The provider ${provider.id} sent invalid user info`);
  return provider.hooks.extraUserInfo ? provider.hooks.extraUserInfo(get, info as Record<string, unknown>, endpoint) : (info as Record<string, unknown>);
}
