// Verifies an authsvc access token in your own backend: no call to authsvc per request.
import { createRemoteJWKSet, jwtVerify } from "jose";

const AUTHSVC_URL = process.env.AUTHSVC_URL ?? "http://localhost:3567"; // authsvc's --public-url
const ISSUER = `${AUTHSVC_URL}/auth`; // public URL + --api-base-path
// Fetched once, cached, and fetched again when a token names an unknown key (after a key rotation).
const JWKS = createRemoteJWKSet(new URL(`${ISSUER}/jwt/jwks.json`));

/** The session behind an access token (Authorization: Bearer … or the sAccessToken cookie), or a throw. */
export async function verifySession(accessToken, { requireVerifiedEmail = false } = {}) {
  const { payload } = await jwtVerify(accessToken, JWKS, {
    issuer: ISSUER,
    algorithms: ["RS256"],
    // authsvc issues no `aud`; a few seconds of leeway absorb clock skew between machines.
    clockTolerance: 5,
    requiredClaims: ["sub", "exp", "iat", "sessionHandle"],
  });
  const emailVerified = payload["st-ev"]?.v === true;
  if (requireVerifiedEmail && !emailVerified) throw new Error("email not verified");
  return { userId: payload.sub, sessionHandle: payload.sessionHandle, emailVerified, expiresAt: payload.exp };
}

// node examples/verify-session.mjs "$ACCESS" prints the session, or the reason and exit code 1.
if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(JSON.stringify(await verifySession(process.argv[2] ?? "")));
  } catch (err) {
    console.error(`invalid session: ${err.code ?? err.message}`);
    process.exitCode = 1;
  }
}
