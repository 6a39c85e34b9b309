import { adminOpenApi as a } from "../../http/openapi/admin.js";
import { body, bodyErrors, errorsFor, json, modeParameters, notAllowed, sessionCreated, statusOnly, tokenHeaders } from "../../http/openapi/components.js";
import { apiArea } from "../../http/openapi/types.js";

const str = { type: "string" };
const linking = { type: "boolean", description: "true: add this login to the signed-in user (needs a session)" };
const attempts = (status: string) => statusOnly(status, { failedCodeInputAttemptCount: { type: "integer" }, maximumCodeInputAttempts: { const: 5 } }, ["failedCodeInputAttemptCount", "maximumCodeInputAttempts"]);
const restart = statusOnly("RESTART_FLOW_ERROR");

/** Passwordless sign-in by email (docs/passwordless.md): SuperTokens' passwordless recipe. */
export const passwordlessArea = apiArea("passwordless", "Sign-in without a password: a one-time code or a magic link by email", {
    "/signinup/code": {
      post: {
        operationId: "createPasswordlessCode", tags: ["passwordless"], summary: "Start a flow for an address and mail a code and/or a link (same answer with or without an account)",
        requestBody: body({ type: "object", required: ["email"], properties: { email: str, shouldTryLinkingWithSessionUser: linking } }),
        responses: {
          200: json("OK with the flow's ids, or GENERAL_ERROR (invalid address)", { oneOf: [
            statusOnly("OK", { deviceId: str, preAuthSessionId: str, flowType: { enum: ["USER_INPUT_CODE", "MAGIC_LINK", "USER_INPUT_CODE_AND_MAGIC_LINK"] } }, ["deviceId", "preAuthSessionId", "flowType"]),
            statusOnly("GENERAL_ERROR", { message: str }, ["message"]),
          ] }),
          ...bodyErrors(401, 429),
        },
      },
    },
    "/signinup/code/resend": {
      post: {
        operationId: "resendPasswordlessCode", tags: ["passwordless"], summary: "Mail a new code for the same flow",
        requestBody: body({ type: "object", required: ["deviceId", "preAuthSessionId"], properties: { deviceId: str, preAuthSessionId: str, shouldTryLinkingWithSessionUser: linking } }),
        responses: { 200: json("OK, or RESTART_FLOW_ERROR (unknown or ended flow)", { oneOf: [statusOnly("OK"), restart] }), ...bodyErrors(429) },
      },
    },
    "/signinup/code/consume": {
      post: {
        operationId: "consumePasswordlessCode", tags: ["passwordless"], summary: "Sign in (or up) with a link code, or a deviceId and the typed code",
        parameters: modeParameters,
        requestBody: body({ type: "object", required: ["preAuthSessionId"], properties: { preAuthSessionId: str, linkCode: str, deviceId: str, userInputCode: str, shouldTryLinkingWithSessionUser: linking } }),
        responses: {
          200: json("OK with a session; INCORRECT/EXPIRED_USER_INPUT_CODE_ERROR; RESTART_FLOW_ERROR (unknown, used or expired link, the 5th wrong code); SIGN_IN_UP_NOT_ALLOWED (account linking: ERR_CODE_002, 003, 017–019)", {
            oneOf: [sessionCreated({ createdNewRecipeUser: { type: "boolean" } }), attempts("INCORRECT_USER_INPUT_CODE_ERROR"), attempts("EXPIRED_USER_INPUT_CODE_ERROR"), restart, notAllowed("SIGN_IN_UP_NOT_ALLOWED")],
          }, tokenHeaders),
          ...bodyErrors(401, 403, 429),
        },
      },
    },
    "/passwordless/email/exists": {
      get: {
        operationId: "passwordlessEmailExists", tags: ["passwordless"], summary: "Whether a passwordless login exists for the address",
        parameters: [{ name: "email", in: "query", required: true, schema: str }],
        responses: { 200: json("OK", statusOnly("OK", { exists: { type: "boolean" } }, ["exists"])), ...errorsFor(400, 429) },
      },
    },
}, undefined, { recipeId: "passwordless" });

/** Its way to create a user through the admin API (admin.ts passwordlessUserCreator); it adds no path of its own. */
export const passwordlessAdminArea = a.extension({
  adminUserCreation: { summary: "with passwordless: true a user who signs in with mailed codes only", fields: { passwordless: { type: "boolean", default: false } } },
  after: { path: "/users" },
  paths: {},
});
