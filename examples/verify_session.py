"""Verifies an authsvc access token in a Python backend with PyJWT: no call to authsvc per request.

PyJWT with its crypto extra: `pip install "pyjwt[crypto]"`, or Debian's python3-jwt.
"""
import json
import os
import sys

import jwt

# authsvc's --public-url, as browsers reach it. The tokens' issuer is that URL + --api-base-path.
AUTHSVC_URL = os.environ.get("AUTHSVC_URL", "http://localhost:3567")
ISSUER = AUTHSVC_URL + "/auth"
# Where this backend fetches the keys: the public JWKS, or the same server over an internal address.
JWKS_URL = os.environ.get("AUTHSVC_JWKS_URL", ISSUER + "/jwt/jwks.json")
# Fetches the key set once and again when a token names a key it does not have (a key rotation).
jwks = jwt.PyJWKClient(JWKS_URL)


class InvalidSession(Exception):
    """The access token does not prove a session: answer 401, and the frontend SDK refreshes."""


def verify_session(access_token, require_verified_email=False):
    try:
        key = jwks.get_signing_key_from_jwt(access_token).key
        payload = jwt.decode(
            access_token, key, algorithms=["RS256"], issuer=ISSUER,
            leeway=5,  # seconds of clock skew between machines
            options={"require": ["sub", "exp", "iat", "iss"], "verify_aud": False},  # authsvc issues no aud
        )
    except jwt.InvalidIssuerError:
        issuer = jwt.decode(access_token, options={"verify_signature": False}).get("iss")
        raise InvalidSession(f"token issuer is {issuer!r}, expected {ISSUER!r}: set AUTHSVC_URL to authsvc's public URL")
    except jwt.ExpiredSignatureError:
        raise InvalidSession("token expired: the frontend refreshes it")
    except jwt.PyJWKClientError as err:
        raise InvalidSession(f"no usable key at {JWKS_URL}: {err}")
    except jwt.InvalidTokenError as err:
        raise InvalidSession(f"invalid token: {err}")
    if not payload.get("sessionHandle"):
        raise InvalidSession("token has no sessionHandle: not an authsvc access token")
    email_verified = (payload.get("st-ev") or {}).get("v") is True
    if require_verified_email and not email_verified:
        raise InvalidSession("email not verified")
    # st-mfa.v false: signed in with the password, but the second factor (docs/mfa.md) is still due.
    # Answer 403 as authsvc does; the frontend SDK sends the user to enter their code.
    if (payload.get("st-mfa") or {}).get("v") is False:
        raise InvalidSession("second factor required")
    # `sub` is the user id: the key of everything your app stores about the user. Roles and
    # permissions (authsvc roles ...) ride in st-role / st-perm, current as of the token's last refresh;
    # the active organization (docs/organizations.md) in `org`: {id, slug, role, permissions} or None.
    return {"userId": payload["sub"], "sessionHandle": payload["sessionHandle"],
            "emailVerified": email_verified, "expiresAt": payload["exp"],
            "roles": (payload.get("st-role") or {}).get("v", []),
            "permissions": (payload.get("st-perm") or {}).get("v", []),
            "organization": payload.get("org")}


def require_permission(session, permission):
    """A route's check: raises (answer 403) unless a role of the user carries the permission."""
    if permission not in session["permissions"]:
        raise PermissionError(f"missing permission {permission}")


def require_org_permission(session, organization_id, permission):
    """An organization-scoped route's check: raises (answer 403) unless organization_id is the
    user's active organization and their role there carries the permission."""
    org = session["organization"]
    if not org or org["id"] != organization_id or permission not in org["permissions"]:
        raise PermissionError(f"missing permission {permission} in organization {organization_id}")


# python3 examples/verify_session.py "$ACCESS" prints the session, or the reason and exit code 1.
if __name__ == "__main__":
    try:
        print(json.dumps(verify_session(sys.argv[1] if len(sys.argv) > 1 else ""), separators=(",", ":")))
    except InvalidSession as err:
        print(f"invalid session: {err}", file=sys.stderr)
        sys.exit(1)
