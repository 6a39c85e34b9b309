import type { Json, UserSchemaPart } from "./types.js";

/** `$ref` to a schema in components. */
export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
/** A JSON response with the given schema. */
export const json = (description: string, schema: Json, headers?: Json): Json => ({ description, ...(headers ? { headers } : {}), content: { "application/json": { schema } } });
/** A JSON request body. */
export const body = (schema: Json): Json => ({ required: false, content: { "application/json": { schema } } });
/** `{status: "<value>"}` and nothing else (plus `extra` properties). */
export const statusOnly = (value: string, extra: Record<string, Json> = {}, required: string[] = []): Json => ({
  type: "object", required: ["status", ...required], additionalProperties: false,
  properties: { status: { const: value }, ...extra },
});
/** Token fields in the body (body mode only, PROTOCOL.md §2). */
/** A *_NOT_ALLOWED answer of account linking: the SDK's fixed reason, shown to the user verbatim. */
/** What a security event ended, by way in (core/ways-in.ts): { "sessions": 2, "oauth-grants": 1 }. */
export const endedSchema: Json = { type: "object", description: "how many of each way in ended, by its id (sessions, oauth-grants…)", additionalProperties: { type: "integer", minimum: 0 } };

export const notAllowed = (status: string): Json => statusOnly(status, { reason: { type: "string", description: "supertokens-node's fixed text ending in (ERR_CODE_…)" } }, ["reason"]);

export const tokenFields: Record<string, Json> = {
  accessToken: { type: "string" }, refreshToken: { type: "string" }, accessTokenExpiresAt: { type: "integer" },
};

export const errorResponse = (description: string): Json => json(description, ref("Message"));
/** Error answers shared by every operation, by status. */
export const errors = {
  400: errorResponse("malformed input (the message says what is wrong)"),
  401: errorResponse("no valid session: `unauthorised`, `try refresh token` or `token theft detected`"),
  403: json("a claim check failed; or, on a route that changes credentials, factors, sign-in methods or grants, a support session (`status`: `SUPPORT_SESSION_REFUSED`)", { oneOf: [ref("InvalidClaim"), ref("SupportSessionRefused")] }),
  413: errorResponse("request body over the size limit"),
  415: errorResponse("wrong Content-Type"),
  429: json("too many requests", ref("Message"), { "retry-after": { schema: { type: "integer" }, description: "seconds to wait" } }),
  500: errorResponse("internal failure (detail only in the server log)"),
  503: json(
    "the database is busy, unreachable, read-only or full (`reason`: `database_unreachable`, `database_read_only`, `database_full`, `database_io_error`), or the server is shutting down; retry after `Retry-After` seconds. A sign-up whose save was cut off says the account may exist",
    ref("Message"),
    { "retry-after": { schema: { type: "integer" }, description: "seconds to wait" } },
  ),
} as const;

type Status = keyof typeof errors;
/** The error responses an operation can give. */
export const errorsFor = (...statuses: Status[]): Record<string, Json> =>
  Object.fromEntries([...statuses, 429, 500, 503].map((s) => [String(s), errors[s as Status]]));

/** A POST that reads a JSON body. */
export const bodyErrors = (...more: Status[]) => errorsFor(400, 413, 415, ...more);

/** Schemas every area may use. */
const baseSchemas: Record<string, Json> = {
  Message: { type: "object", required: ["message"], properties: { message: { type: "string" } } },
  SupportSessionRefused: {
    type: "object", required: ["message", "status"], additionalProperties: false,
    description: "someone else acts in this session (a support session, the token's `act` claim): only the person may make this change (docs/security.md, \"Support sessions\")",
    properties: { message: { type: "string" }, status: { const: "SUPPORT_SESSION_REFUSED" } },
  },
  InvalidClaim: {
    type: "object", required: ["message", "claimValidationErrors"], additionalProperties: false,
    properties: { message: { const: "invalid claim" }, claimValidationErrors: { type: "array" } },
  },
  FormFields: {
    type: "object", required: ["formFields"],
    properties: {
      formFields: { type: "array", items: { type: "object", required: ["id", "value"], properties: { id: { type: "string" }, value: { type: "string" } } } },
      shouldTryLinkingWithSessionUser: { type: "boolean", description: "true: add this login to the signed-in user (needs a session); sign-up and sign-in only" },
    },
  },
  FieldError: {
    type: "object", required: ["status", "formFields"], additionalProperties: false,
    properties: {
      status: { const: "FIELD_ERROR" },
      formFields: { type: "array", minItems: 1, items: { type: "object", required: ["id", "error"], additionalProperties: false, properties: { id: { type: "string" }, error: { type: "string" } } } },
    },
  },
};

/**
 * The USER object's schemas (LoginMethod, the methods' own, User), from the sign-in methods' parts
 * (OpenApiArea.user) in the rooms' order, after the schemas every area may use.
 */
export function sharedSchemas(parts: readonly UserSchemaPart[]): Record<string, Json> {
  const own = (f: (p: UserSchemaPart) => Record<string, Json> | undefined) => Object.assign({}, ...parts.map((p) => f(p) ?? {})) as Record<string, Json>;
  return {
    ...baseSchemas,
    LoginMethod: {
      type: "object", additionalProperties: false,
      required: ["recipeId", "recipeUserId", "tenantIds", "email", "timeJoined", "verified"],
      properties: {
        recipeId: { enum: parts.map((p) => p.recipeId) }, recipeUserId: { type: "string" },
        tenantIds: { type: "array", items: { type: "string" } }, email: { type: "string" },
        timeJoined: { type: "integer" }, verified: { type: "boolean" }, ...own((p) => p.loginMethodFields),
      },
    },
    ...own((p) => p.schemas),
    User: {
      type: "object", additionalProperties: false,
      required: ["id", "email", "timeJoined", "emails", "phoneNumbers", ...parts.flatMap((p) => p.required ?? []), "tenantIds", "isPrimaryUser", "loginMethods"],
      properties: {
        id: { type: "string" }, email: { type: "string", format: "email" }, timeJoined: { type: "integer", description: "ms since the epoch" },
        emails: { type: "array", items: { type: "string" } }, phoneNumbers: { type: "array", maxItems: 0 },
        ...own((p) => p.fields), tenantIds: { type: "array", items: { const: "public" } },
        isPrimaryUser: { type: "boolean", description: "true when several login methods are linked into this user (account linking)" }, loginMethods: { type: "array", items: ref("LoginMethod") },
      },
    },
    SessionCreated: sessionCreated(),
  };
}

/** A signed-in answer: OK with the user (plus `extra`), and the tokens in body mode. */
export function sessionCreated(extra: Record<string, Json> = {}): Json {
  return {
    type: "object", required: ["status", "user", ...Object.keys(extra)], additionalProperties: false,
    properties: { status: { const: "OK" }, user: ref("User"), ...extra, ...tokenFields },
  };
}

/** Request headers of the session transport (PROTOCOL.md §2). */
export const modeParameters: Json[] = [
  { name: "st-auth-mode", in: "header", required: false, schema: { enum: ["cookie", "header", "body"] }, description: "how tokens come back (default cookie)" },
  { name: "authsvc-auth-mode", in: "header", required: false, schema: { const: "body" }, description: "tokens in the JSON body (the prefix is the brandPrefix setting)" },
];

/** Response headers of an answer that creates or replaces tokens. */
export const tokenHeaders: Json = {
  "front-token": { schema: { type: "string" }, description: "base64 JSON {uid, ate, up} for the frontend SDK; `remove` when clearing" },
  "st-access-token": { schema: { type: "string" }, description: "header mode" },
  "st-refresh-token": { schema: { type: "string" }, description: "header mode" },
  "set-cookie": { schema: { type: "string" }, description: "cookie mode: sAccessToken, sRefreshToken" },
};
