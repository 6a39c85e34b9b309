// Verifies an authsvc access token in your own backend: no call to authsvc per request.
import { createRemoteJWKSet, errors, jwtVerify } from "jose";

// authsvc's --public-url, as browsers reach it. The tokens' issuer is that URL + --api-base-path.
const AUTHSVC_URL = process.env.AUTHSVC_URL ?? "http://localhost:3567";
const ISSUER = `${AUTHSVC_URL}/auth`;
// Where this backend fetches the keys: by default the public JWKS; set AUTHSVC_JWKS_URL to reach the
// same server over an internal address (http://authsvc.internal:3567/auth/jwt/jwks.json). The issuer
// stays the public URL either way.
const JWKS_URL = process.env.AUTHSVC_JWKS_URL ?? `${ISSUER}/jwt/jwks.json`;
// Fetched once, cached, and fetched again when a token names an unknown key (after a key rotation).
const JWKS = createRemoteJWKSet(new URL(JWKS_URL));

/** The session behind an access token (Authorization: Bearer … or the sAccessToken cookie), or a throw. */
export async function verifySession(accessToken, { requireVerifiedEmail = false } = {}) {
  let payload;
  try {
    ({ payload } = await jwtVerify(accessToken, JWKS, {
      issuer: ISSUER,
      algorithms: ["RS256"],
      // authsvc issues no `aud`; a few seconds of leeway absorb clock skew between machines.
      clockTolerance: 5,
      requiredClaims: ["sub", "exp", "iat", "sessionHandle"],
    }));
  } catch (err) {
    throw explain(err);
  }
  const emailVerified = payload["st-ev"]?.v === true;
  if (requireVerifiedEmail && !emailVerified) throw Object.assign(new Error("email not verified"), { code: "EMAIL_NOT_VERIFIED" });
  // st-mfa.v false: signed in with the password, but the second factor (docs/mfa.md) is still due.
  // Answer 403 as authsvc does; the frontend SDK sends the user to enter their code.
  if (payload["st-mfa"]?.v === false) throw Object.assign(new Error("second factor required"), { code: "MFA_REQUIRED" });
  // `sub` is the user id: the key of everything your app stores about the user. Roles and
  // permissions (authsvc roles …) ride in st-role / st-perm, current as of the token's last refresh;
  // the active organization (docs/organizations.md) in `org`: {id, slug, role, permissions} or null.
  return {
    userId: payload.sub, sessionHandle: payload.sessionHandle, emailVerified, expiresAt: payload.exp,
    roles: payload["st-role"]?.v ?? [], permissions: payload["st-perm"]?.v ?? [], organization: payload.org ?? null,
  };
}

/** A route's check: `requirePermission(session, "posts:write")` throws (answer 403) unless a role of the user carries it. */
export function requirePermission(session, permission) {
  if (!session.permissions.includes(permission)) throw Object.assign(new Error(`missing permission ${permission}`), { code: "FORBIDDEN" });
}

/**
 * An organization-scoped route's check: `requireOrgPermission(session, orgId, "invoices:read")` throws
 * (answer 403) unless `orgId` is the user's active organization and their role there carries the
 * permission. Scope every query of the route by that organization's id.
 */
export function requireOrgPermission(session, organizationId, permission) {
  const org = session.organization;
  if (!org || org.id !== organizationId || !org.permissions.includes(permission)) {
    throw Object.assign(new Error(`missing permission ${permission} in organization ${organizationId}`), { code: "FORBIDDEN" });
  }
}

/** The real cause of a failed check, in words (jose's code stays on `code`). */
function explain(err) {
  const say = (message) => Object.assign(new Error(message), { code: err.code, cause: err });
  if (err instanceof errors.JWTClaimValidationFailed && err.claim === "iss") {
    return say(`token issuer is ${JSON.stringify(err.payload.iss)}, expected ${JSON.stringify(ISSUER)}: set AUTHSVC_URL to authsvc's public URL`);
  }
  if (err instanceof errors.JWTExpired) return say(`token expired at ${new Date(err.payload.exp * 1000).toISOString()}: the frontend refreshes it`);
  if (err instanceof errors.JWTClaimValidationFailed) return say(`token claim "${err.claim}" failed: ${err.message}`);
  if (err instanceof errors.JWKSNoMatchingKey) return say(`no key at ${JWKS_URL} matches the token's key id: is it the JWKS of the server that issued the token?`);
  if (err instanceof errors.JWSSignatureVerificationFailed) return say("signature does not match: the token was altered, or signed by another server");
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) return say(`not an access token: ${err.message}`);
  const keysUnavailable = !(err instanceof errors.JOSEError) || err instanceof errors.JWKSTimeout
    || err instanceof errors.JWKSInvalid || /JSON Web Key Set/.test(err.message);
  if (keysUnavailable) return say(`could not fetch the keys from ${JWKS_URL}: ${err.cause?.message ?? err.message}`);
  return err;
}

// node examples/verify-session.mjs "$ACCESS" prints the session, or the reason and exit code 1.
if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(JSON.stringify(await verifySession(process.argv[2] ?? "")));
  } catch (err) {
    console.error(`invalid session: ${err.message}`);
    process.exitCode = 1;
  }
}
