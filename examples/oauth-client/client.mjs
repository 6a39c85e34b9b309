// "Sign in with YourApp": the app that sends people to authsvc to sign in, with openid-client.
// Its steps: discover, the authorize URL (PKCE), the token request, userinfo, refresh.
import * as oidc from "openid-client";

/** Discovers authsvc (the issuer is its public URL) as this registered client. */
export function connect({ issuer, clientId, clientSecret, allowHttp = false }) {
  const auth = clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None();
  return oidc.discovery(new URL(issuer), clientId, undefined, auth, allowHttp ? { execute: [oidc.allowInsecureRequests] } : undefined);
}

/**
 * Where to send the browser. Keep `verifier` and `state` in the person's session (a cookie) until
 * the callback. offline_access asks for a refresh token, which comes only with prompt=consent (the
 * person is asked again); `resource` names an API the access token is for.
 */
export async function authorizeUrl(config, { redirectUri, resource, scope = "openid email offline_access" }) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri, scope, state, ...(resource ? { resource } : {}), ...(scope.includes("offline_access") ? { prompt: "consent" } : {}),
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
  });
  return { url, verifier, state };
}

/** The callback: trades the code for tokens (checking state and PKCE); the ID token says who signed in. */
export async function finishSignIn(config, callbackUrl, { verifier, state }) {
  const tokens = await oidc.authorizationCodeGrant(config, new URL(callbackUrl), { pkceCodeVerifier: verifier, expectedState: state });
  return { tokens, idToken: tokens.claims() }; // checked by openid-client: issuer, audience, expiry, signature
}

/** The person's claims from the userinfo endpoint: with an access token asked for without a `resource`. */
export function userInfo(config, tokens) {
  return oidc.fetchUserInfo(config, tokens.access_token, tokens.claims().sub);
}

/** A new access token (and a new refresh token: each works once) when the old one expires. */
export function refresh(config, refreshToken) {
  return oidc.refreshTokenGrant(config, refreshToken);
}
