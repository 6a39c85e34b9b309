import { adminOpenApi as a } from "../../http/openapi/admin.js";
import { body, bodyErrors, errorsFor, json, modeParameters, notAllowed, ref, statusOnly, tokenHeaders } from "../../http/openapi/components.js";
import { apiArea, type Json } from "../../http/openapi/types.js";

const str = { type: "string" };
const options = { webauthnGeneratedOptionsId: str, createdAt: { type: "string", format: "date-time" }, expiresAt: { type: "string", format: "date-time" }, challenge: str, timeout: { type: "integer" } };
const registrationOptions: Json = {
  type: "object", required: ["status", "webauthnGeneratedOptionsId", "challenge", "rp", "user", "pubKeyCredParams"],
  properties: { status: { const: "OK" }, ...options, rp: { type: "object" }, user: { type: "object" }, pubKeyCredParams: { type: "array" }, excludeCredentials: { type: "array" }, attestation: str, authenticatorSelection: { type: "object" } },
};
const signInOptions: Json = statusOnly("OK", { ...options, rpId: str, userVerification: str }, ["webauthnGeneratedOptionsId", "challenge"]);
const credentialBody = (extra: Record<string, Json> = {}, required: string[] = []) => body({
  type: "object", required: ["webauthnGeneratedOptionsId", "credential", ...required],
  properties: { webauthnGeneratedOptionsId: str, credential: { type: "object", description: "the PublicKeyCredential as @simplewebauthn/browser gives it" }, ...extra },
});
const linking = { shouldTryLinkingWithSessionUser: { type: "boolean", description: "true: add this login to the signed-in user (needs a session)" } };
const invalidAuthenticator = statusOnly("INVALID_AUTHENTICATOR_ERROR", { reason: str }, ["reason"]);
const optionsProblems = [statusOnly("OPTIONS_NOT_FOUND_ERROR"), statusOnly("INVALID_OPTIONS_ERROR"), statusOnly("INVALID_CREDENTIALS_ERROR"), invalidAuthenticator];
const op = (operationId: string, summary: string, rest: Json) => ({ operationId, tags: ["webauthn"], summary, ...rest });

/** Passkeys (supertokens-node's webauthn recipe, recipes notes §5). */
export const webauthnArea = apiArea("webauthn", "Passkeys (WebAuthn): sign-up, sign-in, recovery by mail, credential management", {
  "/webauthn/options/register": { post: op("webauthnRegisterOptions", "Registration options for an address or a recovery token (valid 60 s, used once)", {
    requestBody: body({ type: "object", properties: { email: str, recoverAccountToken: str, displayName: str } }),
    responses: { 200: json("options, INVALID_EMAIL_ERROR, or RECOVER_ACCOUNT_TOKEN_INVALID_ERROR", { oneOf: [registrationOptions, statusOnly("INVALID_EMAIL_ERROR", { err: str }, ["err"]), statusOnly("RECOVER_ACCOUNT_TOKEN_INVALID_ERROR")] }), ...bodyErrors(429) },
  }) },
  "/webauthn/options/signin": { post: op("webauthnSignInOptions", "Sign-in options (a challenge for any passkey of this RP; valid 60 s, used once)", {
    requestBody: body({ type: "object" }), responses: { 200: json("options", signInOptions), ...bodyErrors(429) },
  }) },
  "/webauthn/signup": { post: op("webauthnSignUp", "Create a passkey login for the options' address and sign in", {
    parameters: modeParameters, requestBody: credentialBody(linking),
    responses: { 200: json("OK with a session, or why not", { oneOf: [ref("SessionCreated"), statusOnly("EMAIL_ALREADY_EXISTS_ERROR"), notAllowed("SIGN_UP_NOT_ALLOWED"), ...optionsProblems] }, tokenHeaders), ...bodyErrors(401, 403, 429) },
  }) },
  "/webauthn/signin": { post: op("webauthnSignIn", "Sign in with a passkey; every failure is INVALID_CREDENTIALS_ERROR", {
    parameters: modeParameters, requestBody: credentialBody(linking),
    responses: { 200: json("OK with a session, INVALID_CREDENTIALS_ERROR, or SIGN_IN_NOT_ALLOWED", { oneOf: [ref("SessionCreated"), statusOnly("INVALID_CREDENTIALS_ERROR"), notAllowed("SIGN_IN_NOT_ALLOWED")] }, tokenHeaders), ...bodyErrors(401, 403, 429) },
  }) },
  "/webauthn/email/exists": { get: op("webauthnEmailExists", "Whether a passkey login exists for the address", {
    parameters: [{ name: "email", in: "query", required: true, schema: str }],
    responses: { 200: json("OK", statusOnly("OK", { exists: { type: "boolean" } }, ["exists"])), ...errorsFor(400, 429) },
  }) },
  "/user/webauthn/reset/token": { post: op("webauthnRecoveryToken", "Mail a recovery link (valid 1 hour); always OK", {
    requestBody: body({ type: "object", required: ["email"], properties: { email: str } }),
    responses: { 200: json("OK", statusOnly("OK")), ...bodyErrors(429) },
  }) },
  "/user/webauthn/reset": { post: op("webauthnRecoverAccount", "Register a new passkey with a recovery link (no session)", {
    requestBody: credentialBody({ token: str }, ["token"]),
    responses: { 200: json("OK with the user, or why not", { oneOf: [statusOnly("OK", { user: ref("User"), email: str }, ["user", "email"]), statusOnly("RECOVER_ACCOUNT_TOKEN_INVALID_ERROR"), ...optionsProblems] }), ...bodyErrors(429) },
  }) },
  "/webauthn/credential/list": { get: op("webauthnListCredentials", "The signed-in user's passkeys", {
    responses: { 200: json("OK", statusOnly("OK", { credentials: { type: "array", items: { type: "object", required: ["webauthnCredentialId", "relyingPartyId", "createdAt", "recipeUserId"], properties: { webauthnCredentialId: str, relyingPartyId: str, createdAt: { type: "integer" }, lastUsedAt: { type: ["integer", "null"] }, recipeUserId: str } } },
      email: { type: "string", description: "the user's address (for the hosted passkeys page)" },
      passkeyLogins: { type: "array", items: { type: "object", required: ["recipeUserId", "email"], properties: { recipeUserId: str, email: str } }, description: "the user's passkey logins: a new passkey goes on one of them" } }, ["credentials"])), ...errorsFor(401) },
  }) },
  "/webauthn/credential": { post: op("webauthnAddCredential", "Add a passkey to the signed-in user's passkey login", {
    requestBody: credentialBody({ recipeUserId: str }, ["recipeUserId"]),
    responses: { 200: json("OK, or why not", { oneOf: [statusOnly("OK"), statusOnly("REGISTER_CREDENTIAL_NOT_ALLOWED", { reason: str }), ...optionsProblems] }), ...bodyErrors(401, 403) },
  }) },
  "/webauthn/credential/remove": { post: op("webauthnRemoveCredential", "Remove one of the signed-in user's passkeys (never the last way in)", {
    requestBody: body({ type: "object", required: ["webauthnCredentialId"], properties: { webauthnCredentialId: str } }),
    responses: { 200: json("OK, CREDENTIAL_NOT_FOUND_ERROR, or GENERAL_ERROR (the last way in)", { oneOf: [statusOnly("OK"), statusOnly("CREDENTIAL_NOT_FOUND_ERROR"), statusOnly("GENERAL_ERROR", { message: str }, ["message"])] }), ...bodyErrors(401) },
  }) },
}, undefined, {
  // Its part of the USER object: the passkeys' credential ids, at the top and in each login.
  recipeId: "webauthn",
  fields: { webauthn: ref("WebauthnIds") },
  loginMethodFields: { webauthn: ref("WebauthnIds") },
  schemas: {
    WebauthnIds: {
      type: "object", required: ["credentialIds"], additionalProperties: false,
      properties: { credentialIds: { type: "array", items: { type: "string" }, description: "passkey credential ids (base64url)" } },
    },
  },
});

/** Its admin routes (admin.ts), listed under the admin API beside the user's other routes, with the passkey they show. */
export const webauthnAdminArea = a.extension({
  after: { path: "/users/{id}/sessions", schema: "AdminSession" },
  paths: {
    "/users/{id}/passkeys": {
      get: a.op("adminListPasskeys", "The user's passkeys (credential ids and times, never a key)", {
        parameters: [a.userId], responses: { 200: json("the passkeys", a.object({ passkeys: { type: "array", items: ref("AdminPasskey") } })), ...a.errorsFor(400) },
      }),
    },
    "/users/{id}/passkeys/{credentialId}": {
      delete: a.op("adminRemovePasskey", "Remove one passkey of the user; 409 when it is their last way to sign in", {
        parameters: [a.userId, a.param("credentialId", "the passkey's credential id (base64url)")],
        responses: { 200: json("removed", a.object({ removed: { const: true } })), ...a.errorsFor(400, 409) },
      }),
    },
  },
  schemas: {
    AdminPasskey: a.object({
      webauthnCredentialId: { type: "string" }, relyingPartyId: { type: "string" }, createdAt: { type: "integer" }, lastUsedAt: { type: ["integer", "null"] }, recipeUserId: { type: "string" },
    }),
  },
});
