import { adminOpenApi as a } from "../../http/openapi/admin.js";
import { body, bodyErrors, errorsFor, json, modeParameters, notAllowed, ref, statusOnly, tokenHeaders } from "../../http/openapi/components.js";
import { apiArea, type Json } from "../../http/openapi/types.js";

const devToken = { token: { type: "string", description: "development mode only: the token that was mailed" } };

/** The seed's email/password endpoints (#1, #2, #6, #7) and the email-exists check. */
export const emailPasswordArea = apiArea("emailpassword", "Email/password sign-up, sign-in and password reset", {
    "/signup": { post: signInOrUp("signUp", "Create an email/password user and sign them in", "OK with a session, FIELD_ERROR (invalid address, password outside policy, address taken), or SIGN_UP_NOT_ALLOWED (account linking: ERR_CODE_007, 013–015)", [notAllowed("SIGN_UP_NOT_ALLOWED")]) },
    "/signin": { post: signInOrUp("signIn", "Sign in", "OK with a session, FIELD_ERROR, WRONG_CREDENTIALS_ERROR (same answer for every credential failure), or SIGN_IN_NOT_ALLOWED (account linking, after a right password: ERR_CODE_008, 009–011)", [statusOnly("WRONG_CREDENTIALS_ERROR"), notAllowed("SIGN_IN_NOT_ALLOWED")]) },
    "/emailpassword/email/exists": { get: emailExists("emailExists") },
    "/signup/email/exists": { get: { ...emailExists("emailExistsLegacy"), deprecated: true } },
    "/user/password/reset/token": {
      post: {
        operationId: "createPasswordResetToken", tags: ["emailpassword"], summary: "Mail a reset token (valid 1 hour); always OK for a well-formed address",
        requestBody: body(ref("FormFields")),
        responses: { 200: json("OK (the token is in the body in development mode only), or FIELD_ERROR", { oneOf: [statusOnly("OK", devToken), ref("FieldError")] }), ...bodyErrors() },
      },
    },
    "/user/password/reset": {
      post: {
        operationId: "resetPassword", tags: ["emailpassword"], summary: "Set a new password with a reset token",
        requestBody: body({ type: "object", required: ["formFields", "token"], properties: { method: { const: "token" }, token: { type: "string" }, formFields: ref("FormFields/properties/formFields") } }),
        responses: {
          200: json("OK (every session of the user is revoked), RESET_PASSWORD_INVALID_TOKEN_ERROR, or FIELD_ERROR",
            { oneOf: [statusOnly("OK"), statusOnly("RESET_PASSWORD_INVALID_TOKEN_ERROR"), ref("FieldError")] }),
          ...bodyErrors(),
        },
      },
    },
}, undefined, { recipeId: "emailpassword" });

function emailExists(operationId: string) {
  return {
    operationId, tags: ["emailpassword"], summary: "Whether an email/password account exists for the address",
    parameters: [{ name: "email", in: "query", required: true, schema: { type: "string" } }],
    responses: { 200: json("OK", statusOnly("OK", { exists: { type: "boolean" } }, ["exists"])), ...errorsFor(400) },
  };
}

/** Sign-up and sign-in: form fields in, a session (or the listed outcomes) out. */
function signInOrUp(operationId: string, summary: string, description: string, outcomes: Json[]) {
  return {
    operationId, tags: ["emailpassword"], summary, parameters: modeParameters, requestBody: body(ref("FormFields")),
    // 401: shouldTryLinkingWithSessionUser without a live session; 403: that session may not add a login (st-mfa, st-fresh-sign-in).
    responses: { 200: json(description, { oneOf: [ref("SessionCreated"), ref("FieldError"), ...outcomes] }, tokenHeaders), ...bodyErrors(401, 403) },
  };
}

/**
 * Its admin routes (admin.ts), listed under the admin API beside the user's other routes, and its
 * way to create a user there (the default one, admin.ts passwordUserCreator).
 */
export const emailPasswordAdminArea = a.extension({
  adminUserCreation: {
    summary: "an email/password user with sign-up's rules (address check, password policy, unique address)",
    fields: { password: { type: "string" }, verified: { type: "boolean", default: false } },
  },
  after: { path: "/users/{id}/verified" },
  paths: {
    "/users/{id}/password": {
      put: a.op("adminSetPassword", "Set the password (policy checked); every session of the user is revoked", {
        parameters: [a.userId], requestBody: a.body(a.object({ password: { type: "string" } }), true),
        responses: { 200: json("set", a.object({ id: { type: "string" }, revokedSessions: { type: "integer", minimum: 0 } })), ...a.bodyErrors(409) },
      }),
    },
    "/users/{id}/reset-link": {
      post: a.op("adminCreateResetLink", "A password-reset link for the backend to deliver; mailed too with {mail: true}", {
        parameters: [a.userId], requestBody: a.body(a.object({ mail: { type: "boolean", default: false } }, []), false),
        responses: {
          200: json("the link (the same token the reset mail carries)", a.object({ link: { type: "string", format: "uri" }, expiresAt: { type: "integer", description: "ms since the epoch" }, mailed: { type: "boolean" } })),
          ...a.bodyErrors(409),
        },
      }),
    },
  },
});
