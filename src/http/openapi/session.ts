import { body, bodyErrors, errorsFor, json, statusOnly, tokenFields, tokenHeaders } from "./components.js";
import { apiArea } from "./types.js";

const withSession = [{ AccessToken: [] }, { AccessCookie: [] }];

/** Sessions (refresh, sign-out) and email verification (seed #3, #4, #5). */
export const sessionArea = apiArea("session", "Session refresh and sign-out; email verification", {
    "/session/refresh": {
      post: {
        operationId: "refreshSession", tags: ["session"], summary: "Rotate the refresh token; new tokens in the mode the refresh token came in",
        security: [{ RefreshToken: [] }, { RefreshCookie: [] }],
        responses: {
          200: json("new tokens (in the body only in body mode)", { type: "object", additionalProperties: false, properties: tokenFields }, tokenHeaders),
          ...errorsFor(401),
        },
      },
    },
    "/signout": {
      post: {
        operationId: "signOut", tags: ["session"], summary: "Revoke the session and clear its tokens", security: withSession,
        responses: { 200: json("signed out", statusOnly("OK"), tokenHeaders), ...errorsFor(401, 413, 415) },
      },
    },
    "/user/email/verify": {
      get: {
        operationId: "getEmailVerification", tags: ["session"], summary: "Whether the user's address is verified", security: withSession,
        responses: { 200: json("OK; re-issues the access token when its st-ev claim is stale", statusOnly("OK", { isVerified: { type: "boolean" }, ...tokenFields }, ["isVerified"]), tokenHeaders), ...errorsFor(401, 403) },
      },
      post: {
        operationId: "verifyEmail", tags: ["session"], summary: "Verify the address with a mailed token",
        security: [...withSession, {}],
        requestBody: body({ type: "object", required: ["token"], properties: { method: { const: "token" }, token: { type: "string" } } }),
        responses: {
          200: json("OK, or EMAIL_VERIFICATION_INVALID_TOKEN_ERROR", { oneOf: [statusOnly("OK", tokenFields), statusOnly("EMAIL_VERIFICATION_INVALID_TOKEN_ERROR")] }, tokenHeaders),
          ...bodyErrors(401, 403),
        },
      },
    },
    "/user/email/verify/token": {
      post: {
        operationId: "createEmailVerificationToken", tags: ["session"], summary: "Mail a verification token (valid 1 day)", security: withSession,
        responses: {
          200: json("OK (the token is in the body in development mode only), or EMAIL_ALREADY_VERIFIED_ERROR",
            { oneOf: [statusOnly("OK", { token: { type: "string" }, ...tokenFields }), statusOnly("EMAIL_ALREADY_VERIFIED_ERROR", tokenFields)] }, tokenHeaders),
          ...errorsFor(401, 403, 413, 415),
        },
      },
    },
});

