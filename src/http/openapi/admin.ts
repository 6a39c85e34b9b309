import { ADMIN_PREFIX } from "../admin/route.js";
import { endedSchema, json, ref } from "./components.js";
import type { DocumentParts, Json, OpenApiArea } from "./types.js";

/**
 * The admin API (src/http/admin/): server to server, every operation behind the admin key. Unlike
 * the public API it answers with REST statuses (201, 404, 409), and its errors are strict
 * `{message}` objects (plus `formFields` where sign-up's rules refused the input).
 */
const tags = ["admin"];
const security = [{ AdminKey: [] }];

const error = (description: string): Json => json(description, ref("AdminError"));
const errors = {
  400: error("bad input: a malformed body or parameter, or a refused email/password (`formFields` then says which)"),
  401: {
    ...error("no admin key, a wrong one, or another scheme; answered before any route is matched"),
    headers: { "www-authenticate": { required: true, schema: { type: "string" }, description: '`Bearer realm="authsvc-admin"`, with `error="invalid_token"` when a key was sent but is wrong (RFC 6750 §3)' } },
  },
  404: error("no such user or session, or the admin API is off (AUTHSVC_ADMIN_API_KEY unset: every /admin path is 404)"),
  409: error("the address is taken (with `formFields`), the user has no password (they sign in another way), or the login method is not linked"),
  413: error("request body over the size limit"),
  415: error("a non-empty body that is not application/json"),
  429: {
    ...error("too many wrong admin keys from this client (bucket admin-key-ip): every admin request from it is refused until Retry-After"),
    headers: { "retry-after": { required: true, schema: { type: "integer" }, description: "seconds to wait" } },
  },
  500: error("internal failure (detail only in the server log)"),
  503: error("the database is busy, unreachable, read-only or full (`reason` says which), or the server is shutting down; see `Retry-After`"),
} as const;
type Status = keyof typeof errors;

/** The error answers of an operation: the given ones plus those every admin route can give. */
const errorsFor = (...statuses: Status[]): Record<string, Json> =>
  Object.fromEntries([...new Set<Status>([...statuses, 401, 404, 429, 500, 503])].sort().map((s) => [String(s), errors[s]]));
/** An operation that reads a JSON body also answers 413 and 415. */
const bodyErrors = (...more: Status[]) => errorsFor(400, 413, 415, ...more);

const object = (properties: Record<string, Json>, required: string[] = Object.keys(properties)): Json => ({ type: "object", required, additionalProperties: false, properties });
const body = (schema: Json, required: boolean): Json => ({ required, content: { "application/json": { schema } } });
const param = (name: string, description: string): Json => ({ name, in: "path", required: true, schema: { type: "string", minLength: 1, maxLength: 200 }, description });
const query = (name: string, description: string, schema: Json = { type: "string" }): Json => ({ name, in: "query", required: false, schema, description });
const userId = param("id", "the user's id");
const userAnswer = object({ user: ref("AdminUser") });

/** One operation: the tag, the admin key, and the pieces given. */
function op(operationId: string, summary: string, rest: Json): Json {
  return { operationId, tags, summary, security, ...rest };
}

/**
 * A room's admin paths under the kernel's "admin" tag (its user routes beside the kernel's): the
 * paths go right after `after.path` and the schemas after `after.schema`, where the document has
 * always listed them.
 */
function extension(area: Pick<OpenApiArea, "after" | "paths" | "schemas" | "adminUserCreation">): OpenApiArea {
  return { tag: adminTag, prefix: () => ADMIN_PREFIX, ...area };
}

/** The admin API's building blocks, for the rooms that describe admin routes of their own (src/webhooks, src/roles, src/metadata, the sign-in methods). */
export const adminOpenApi = { op, errorsFor, bodyErrors, object, body, param, query, userId, extension };

const adminTag = { name: "admin", description: "The admin API for the app's backend (off unless AUTHSVC_ADMIN_API_KEY is set; no CORS): users, passwords, reset links, sessions" };

export const adminArea: OpenApiArea = {
  tag: adminTag,
  prefix: () => ADMIN_PREFIX,
  paths: {
    // The ways to create a user are the sign-in methods' (OpenApiArea.adminUserCreation).
    "/users": ({ userCreation }: DocumentParts) => ({
      get: op("adminListUsers", "Every user an address belongs to (?email=), or a page of users oldest first (?limit=&cursor=&search=)", {
        parameters: [
          query("email", "every user this address belongs to (users of different sign-in methods can share one); the paging parameters are then ignored"),
          query("limit", "page size", { type: "integer", minimum: 1, maximum: 500, default: 100 }),
          query("cursor", "the previous page's nextCursor, unchanged"),
          query("search", "only users whose email contains this (case-insensitive, wildcards literal)"),
        ],
        responses: {
          200: json("`{users}` for ?email=, `{users, nextCursor}` for a page (nextCursor null on the last page)",
            object({ users: { type: "array", items: ref("AdminUser") }, nextCursor: { type: ["string", "null"] } }, ["users"])),
          ...errorsFor(400),
        },
      }),
      post: op("adminCreateUser", `Create ${userCreation.map((c) => c.summary).join(", or ")}`, {
        requestBody: body(object(Object.assign({ email: { type: "string" } }, ...userCreation.map((c) => c.fields)), ["email"]), true),
        responses: { 201: json("created", userAnswer), ...bodyErrors(409) },
      }),
    }),
    "/users/{id}": {
      get: op("adminGetUser", "One user", { parameters: [userId], responses: { 200: json("the user", userAnswer), ...errorsFor(400) } }),
      delete: op("adminDeleteUser", "Delete the user with everything attached (sessions, tokens, logins); a feature may refuse (409, the message says why)", {
        parameters: [userId], responses: { 200: json("deleted", object({ deleted: { type: "string" } })), ...errorsFor(400), 409: error("refused by a feature, e.g. the user is the only owner of an organization that has other members (the message names it); nothing deleted") },
      }),
    },
    "/users/{id}/verified": {
      put: op("adminSetVerified", "Mark the user's current email verified or unverified", {
        parameters: [userId], requestBody: body(object({ verified: { type: "boolean" } }), true),
        responses: { 200: json("done; `changed` is false when it already was so", object({ id: { type: "string" }, verified: { type: "boolean" }, changed: { type: "boolean" } })), ...bodyErrors() },
      }),
    },
    "/users/{id}/links": {
      post: op("adminLinkUsers", "Account linking by hand: user `userId` (every login method) becomes part of user {id}, who keeps the id", {
        parameters: [userId], requestBody: body(object({ userId: { type: "string", minLength: 1 } }), true),
        responses: { 200: json("linked (changed false: they already were one user)", object({ userId: { type: "string" }, changed: { type: "boolean" } })), ...bodyErrors() },
      }),
      delete: op("adminUnlinkUser", "The login method whose id is {id} (a loginMethods[].recipeUserId) leaves its user and becomes a user of its own", {
        parameters: [param("id", "the login method's recipeUserId")],
        responses: { 200: json("unlinked; remainingUserId is the id of the user the other methods form", object({ userId: { type: "string" }, remainingUserId: { type: "string" } })), ...errorsFor(400, 409) },
      }),
    },
    "/users/{id}/sessions": {
      get: op("adminListSessions", "The user's live sessions, newest first (handles and times, never tokens)", {
        parameters: [userId], responses: { 200: json("the sessions", object({ sessions: { type: "array", items: ref("AdminSession") } })), ...errorsFor(400) },
      }),
      delete: op("adminRevokeSessions", "Sign the user out everywhere: every way in ends (every session, every app they allowed); their refresh tokens fail from now on", {
        parameters: [userId], responses: { 200: json("`revoked`: how many sessions ended; `ended`: how many of each way in", object({ revoked: { type: "integer", minimum: 0 }, ended: endedSchema })), ...errorsFor(400) },
      }),
    },
    "/sessions/{handle}": {
      delete: op("adminRevokeSession", "Revoke one session", {
        parameters: [param("handle", "the session handle")],
        responses: {
          200: json("`revoked` is false when it had already ended", object({ handle: { type: "string" }, userId: { type: "string" }, revoked: { type: "boolean" } })),
          ...errorsFor(400),
        },
      }),
    },
  },
  schemas: {
    // The USER object (its fields declared by the sign-in methods) and whether the address is verified.
    AdminUser: (shared) => {
      const user = shared.User as { required: string[]; properties: Record<string, Json> };
      return { ...user, required: [...user.required, "verified"], properties: { ...user.properties, verified: { type: "boolean", description: "whether the current email is verified" } } };
    },
    AdminSession: object({
      handle: { type: "string" }, userId: { type: "string" }, createdAt: { type: "integer" }, expiresAt: { type: "integer" },
      lastRefreshedAt: { type: ["integer", "null"] },
      supportBy: { type: ["string", "null"], description: "a support session: the address of the admin acting as the person in it; null for the person's own" },
    }),
    AdminError: object({
      message: { type: "string" },
      formFields: { type: "array", minItems: 1, items: object({ id: { type: "string" }, error: { type: "string" } }) },
    }, ["message"]),
  },
};
