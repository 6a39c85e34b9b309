import { body, bodyErrors, endedSchema, errorsFor, json, ref, statusOnly } from "../http/openapi/components.js";
import { apiArea, type Json } from "../http/openapi/types.js";

const withSession = [{ AccessToken: [] }, { AccessCookie: [] }];
const tags = ["account"];
const strings = (...names: string[]): Json => ({ type: "object", required: names, properties: Object.fromEntries(names.map((n) => [n, { type: "string" }])) });
const fieldError = statusOnly("FIELD_ERROR", { formFields: { type: "array", items: { type: "object", required: ["id", "error"], properties: { id: { type: "string" }, error: { type: "string" } } } } }, ["formFields"]);

/** The self-service account (src/account/): endpoints of ours, not part of the SuperTokens FDI. */
export const accountArea = apiArea("account", "Self-service account (\"My account\"): change password or email, list and revoke my sessions, delete my account. authsvc's own endpoints, not the FDI's", {
  "/account/me": {
    get: {
      operationId: "getMe", tags, summary: "Who is signed in: the person's id, primary address and when they joined (the hosted pages show it)", security: withSession,
      responses: {
        200: json("the signed-in person", statusOnly("OK", { user: { type: "object", required: ["id", "email", "timeJoined"], properties: { id: { type: "string" }, email: { type: "string" }, timeJoined: { type: "integer" }, locale: { type: "string", description: "the locale my mail is written in (stored, else --default-locale)" } } } }, ["user"])),
        ...errorsFor(401),
      },
    },
  },
  "/account/locale": {
    post: {
      operationId: "changeMyLocale", tags, summary: "The language my mail is written in: one of the offered locales (--locales); anything else is a 400 and changes nothing", security: withSession,
      requestBody: body(strings("locale")),
      responses: { 200: json("the locale stored", statusOnly("OK", { locale: { type: "string" } }, ["locale"])), ...bodyErrors(401) },
    },
  },
  "/account/sessions": {
    get: {
      operationId: "listMySessions", tags, summary: "My live sessions (every login method of mine), newest first", security: withSession,
      responses: { 200: json("the sessions", statusOnly("OK", { sessions: { type: "array", items: ref("MySession") } }, ["sessions"])), ...errorsFor(401) },
    },
  },
  "/account/sessions/revoke": {
    post: {
      operationId: "revokeMySessions", tags, summary: "End one of my sessions ({sessionHandle}), or sign out everywhere but here ({others: true}: every other session and every app I allowed); someone else's handle revokes nothing", security: withSession,
      requestBody: body({ type: "object", properties: { sessionHandle: { type: "string" }, others: { const: true } } }),
      responses: { 200: json("how many sessions ended (revoked) and, for others: true, how many of each way in (ended)", statusOnly("OK", { revoked: { type: "integer", minimum: 0 }, ended: endedSchema }, ["revoked"])), ...bodyErrors(401) },
    },
  },
  "/account/password": {
    post: {
      operationId: "changeMyPassword", tags, summary: "Change my password with the current one; my other sessions and the apps I allowed are signed out, and a notice is mailed", security: withSession,
      requestBody: body(strings("currentPassword", "newPassword")),
      responses: {
        200: json("OK, WRONG_CREDENTIALS_ERROR (current password), FIELD_ERROR (newPassword outside policy) or NO_PASSWORD_LOGIN",
          { oneOf: [statusOnly("OK", { revokedSessions: { type: "integer", minimum: 0 } }, ["revokedSessions"]), statusOnly("WRONG_CREDENTIALS_ERROR"), fieldError, statusOnly("NO_PASSWORD_LOGIN")] }),
        ...bodyErrors(401),
      },
    },
  },
  "/account/email": {
    post: {
      operationId: "changeMyEmail", tags, summary: "Ask to change my address (with my password): a confirmation link goes to the new address. OK also when the address is someone else's (then no mail: no enumeration)", security: withSession,
      requestBody: body(strings("email", "password")),
      responses: {
        200: json("OK, WRONG_CREDENTIALS_ERROR, FIELD_ERROR (invalid or unchanged address) or NO_PASSWORD_LOGIN (the person has no password to prove the change with; their address comes with the way they sign in)",
          { oneOf: [statusOnly("OK"), statusOnly("WRONG_CREDENTIALS_ERROR"), fieldError, statusOnly("NO_PASSWORD_LOGIN")] }),
        ...bodyErrors(401),
      },
    },
  },
  "/account/email/confirm": {
    post: {
      operationId: "confirmMyEmail", tags, summary: "Complete an address change with the mailed token (no session needed); the old address gets a notice",
      requestBody: body(strings("token")),
      responses: {
        200: json("OK with the new address, EMAIL_CHANGE_INVALID_TOKEN_ERROR, or EMAIL_ALREADY_USED_ERROR (someone else has it now; nothing changed)",
          { oneOf: [statusOnly("OK", { email: { type: "string" } }, ["email"]), statusOnly("EMAIL_CHANGE_INVALID_TOKEN_ERROR"), statusOnly("EMAIL_ALREADY_USED_ERROR")] }),
        ...bodyErrors(),
      },
    },
  },
  "/account/delete": {
    post: {
      operationId: "deleteMyAccount", tags, summary: "Delete my account: password when I have one, else a sign-in in the last 10 minutes. Every session ends, and every app I allowed; after the grace period (accountDeletionGrace) the account is deleted; the grace mail's link cancels", security: withSession,
      requestBody: body({ type: "object", properties: { password: { type: "string" } } }),
      responses: {
        200: json("OK (deleted at once, or deleteAt in ms), WRONG_CREDENTIALS_ERROR, or REAUTHENTICATION_REQUIRED (sign in again first)", {
          oneOf: [
            statusOnly("OK", { deleted: { type: "boolean" }, deleteAt: { type: "integer" } }, ["deleted"]),
            statusOnly("WRONG_CREDENTIALS_ERROR"), statusOnly("REAUTHENTICATION_REQUIRED"),
          ],
        }),
        ...bodyErrors(401),
        409: json("refused by a feature, e.g. I am the only owner of an organization that has other members (the message names it); nothing scheduled", ref("Message")),
      },
    },
  },
  "/account/delete/cancel": {
    post: {
      operationId: "cancelMyDeletion", tags, summary: "Keep an account whose deletion is scheduled, with the token from the grace mail",
      requestBody: body(strings("token")),
      responses: { 200: json("OK or DELETION_CANCEL_INVALID_TOKEN_ERROR", { oneOf: [statusOnly("OK"), statusOnly("DELETION_CANCEL_INVALID_TOKEN_ERROR")] }), ...bodyErrors() },
    },
  },
  "/account/logins": {
    get: {
      operationId: "listMyLogins", tags, summary: "My login methods (method, address or provider, when added), oldest first", security: withSession,
      responses: { 200: json("the logins", statusOnly("OK", { logins: { type: "array", items: ref("MyLogin") } }, ["logins"])), ...errorsFor(401) },
    },
  },
  "/account/logins/remove": {
    post: {
      operationId: "removeMyLogin", tags, summary: "Remove one of my login methods after re-authentication (password, or a sign-in in the last 10 minutes); never the last, the account's first, or this session's", security: withSession,
      requestBody: body({ type: "object", required: ["recipeUserId"], properties: { recipeUserId: { type: "string" }, password: { type: "string" } } }),
      responses: {
        200: json("OK with the logins left, or why not", { oneOf: [statusOnly("OK", { logins: { type: "array", items: ref("MyLogin") } }, ["logins"]),
          ...["WRONG_CREDENTIALS_ERROR", "REAUTHENTICATION_REQUIRED", "UNKNOWN_LOGIN", "LAST_LOGIN_METHOD", "PRIMARY_LOGIN_METHOD", "CURRENT_LOGIN_METHOD"].map((x) => statusOnly(x))] }),
        ...bodyErrors(401),
      },
    },
  },
}, {
  // `method`: a login method's recipe id, as the USER object's loginMethods[] (the methods' own enum).
  MyLogin: (shared) => ({
    type: "object", additionalProperties: false,
    required: ["recipeUserId", "method", "email", "provider", "passkeys", "addedAt", "current", "primary"],
    properties: {
      recipeUserId: { type: "string" }, method: (shared.LoginMethod as { properties: Record<string, Json> }).properties.recipeId, email: { type: "string" },
      provider: { type: ["string", "null"] }, passkeys: { type: ["integer", "null"] }, addedAt: { type: "integer" },
      current: { type: "boolean", description: "the login of this session" }, primary: { type: "boolean", description: "its id is the account's id" },
    },
  }),
  MySession: {
    type: "object", additionalProperties: false,
    required: ["sessionHandle", "current", "createdAt", "lastUsedAt", "expiresAt", "ip", "userAgent", "supportBy"],
    properties: {
      sessionHandle: { type: "string" }, current: { type: "boolean", description: "the session of this request" },
      createdAt: { type: "integer" }, lastUsedAt: { type: "integer", description: "last refresh, or the sign-in" }, expiresAt: { type: "integer" },
      ip: { type: ["string", "null"], description: "client IP at sign-in" }, userAgent: { type: ["string", "null"], description: "User-Agent at sign-in" },
      supportBy: { type: ["string", "null"], description: "a support session: the address of the admin acting as the person in it (docs/security.md, \"Support sessions\"); null for the person's own" },
    },
  },
});
