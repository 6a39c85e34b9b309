import { ADMIN_PREFIX } from "../http/admin/route.js";
import { adminOpenApi } from "../http/openapi/admin.js";
import * as pub from "../http/openapi/components.js";
import { json, ref } from "../http/openapi/components.js";
import { apiArea, type OpenApiArea } from "../http/openapi/types.js";

const { op, errorsFor, bodyErrors, object, body, param, query, userId } = adminOpenApi;
const strings = { type: "array", items: { type: "string" } };
const stringsOrText = { oneOf: [strings, { type: "string" }] };

const grantSchema = {
  type: "object", required: ["grantId", "clientId", "clientName", "redirectHosts", "scopes", "resources", "grantedAt", "expiresAt"],
  properties: {
    grantId: { type: "string" }, clientId: { type: "string" }, clientName: { type: "string" }, redirectHosts: strings, scopes: strings,
    resources: { type: "array", items: { type: "object", required: ["resource", "scopes"], properties: { resource: { type: "string" }, scopes: strings } } },
    grantedAt: { type: "integer" }, expiresAt: { type: ["integer", "null"] },
  },
};
const withSession = [{ AccessToken: [] }, { AccessCookie: [] }];
const tags = ["connected-apps"];

/** The person's connected apps (src/oauth-provider/connected-apps.ts): endpoints of ours, not the FDI's. */
export const connectedAppsArea: OpenApiArea = apiArea("connected-apps", "Connected apps: the apps (OAuth clients) the signed-in person allowed, and revoking one. authsvc's own endpoints", {
  "/account/connected-apps": {
    get: {
      operationId: "listMyConnectedApps", tags, summary: "The apps I allowed (my OAuth grants), newest first", security: withSession,
      responses: { 200: json("the apps", pub.statusOnly("OK", { apps: { type: "array", items: ref("ConnectedApp") } }, ["apps"])), ...pub.errorsFor(401) },
    },
  },
  "/account/connected-apps/revoke": {
    post: {
      operationId: "revokeMyConnectedApp", tags, summary: "Disconnect an app: end my grant {grantId} with its refresh tokens; a grant that is not mine revokes nothing", security: withSession,
      requestBody: pub.body({ type: "object", required: ["grantId"], properties: { grantId: { type: "string", maxLength: 200 } } }),
      responses: { 200: json("how many ended (0 or 1)", pub.statusOnly("OK", { revoked: { type: "integer", minimum: 0, maximum: 1 } }, ["revoked"])), ...pub.bodyErrors(401) },
    },
  },
}, { ConnectedApp: grantSchema });

/** The provider's admin routes (src/oauth-provider/admin.ts): clients and resources the operator registers. */
export const oauthAdminArea: OpenApiArea = {
  tag: { name: "oauth", description: "OAuth provider: clients and resources (admin API; see docs/oauth-provider.md)" },
  prefix: () => ADMIN_PREFIX,
  paths: {
    "/oauth/clients": {
      get: op("adminListOauthClients", "Every client the operator registered (never their secrets)", { responses: { 200: json("the clients", object({ clients: { type: "array", items: ref("OauthClient") } })), ...errorsFor() } }),
      post: op("adminCreateOauthClient", "Register a client; a confidential one's secret is in the answer, the only time it is shown", {
        requestBody: body(object({
          name: { type: "string", maxLength: 100 }, type: { enum: ["public", "confidential"] }, redirectUris: stringsOrText,
          scopes: stringsOrText, resources: stringsOrText, grantTypes: { oneOf: [{ type: "array", items: { enum: ["authorization_code", "refresh_token", "client_credentials"] } }, { type: "string" }] },
        }, ["name"]), true),
        responses: { 201: json("registered", object({ client: { type: "object", allOf: [ref("OauthClient")] } })), ...bodyErrors() },
      }),
    },
    "/oauth/clients/{id}": {
      delete: op("adminDeleteOauthClient", "Delete a client with every code, token and grant issued to it", {
        parameters: [param("id", "the client_id")], responses: { 200: json("deleted", object({ deleted: { type: "string" } })), ...errorsFor(400) },
      }),
    },
    "/users/{id}/oauth-grants": {
      get: op("adminListUserOauthGrants", "The user's connected apps: the grants they gave (client, redirect hosts, scopes and resources, when), newest first", {
        parameters: [userId], responses: { 200: json("the grants", object({ grants: { type: "array", items: ref("OauthGrant") } })), ...errorsFor(400, 404) },
      }),
    },
    "/users/{id}/oauth-grants/{grantId}": {
      delete: op("adminRevokeUserOauthGrant", "Revoke one of the user's grants: the app's refresh tokens and codes end with it (JWT access tokens live out their minutes)", {
        parameters: [userId, param("grantId", "the grant's id")], responses: { 200: json("revoked", object({ revoked: { type: "string" } })), ...errorsFor(400, 404) },
      }),
    },
    "/oauth/resources": {
      get: op("adminListOauthResources", "Every resource (API or MCP server) tokens may be issued for", { responses: { 200: json("the resources", object({ resources: { type: "array", items: ref("OauthResource") } })), ...errorsFor() } }),
      post: op("adminCreateOauthResource", "Register a resource and its scopes (409 when it is registered already)", {
        requestBody: body(object({ resource: { type: "string" }, name: { type: "string", maxLength: 100 }, scopes: stringsOrText }, ["resource"]), true),
        responses: { 201: json("registered", object({ resource: ref("OauthResource") })), ...bodyErrors(409) },
      }),
      delete: op("adminDeleteOauthResource", "Remove a resource (tokens already issued for it stay valid until they expire)", {
        parameters: [{ ...query("resource", "the resource's URL"), required: true }], responses: { 200: json("deleted", object({ deleted: { type: "string" } })), ...errorsFor(400) },
      }),
    },
  },
  schemas: {
    OauthClient: object({
      clientId: { type: "string" }, name: { type: "string" }, type: { enum: ["public", "confidential"] }, redirectUris: strings, scopes: strings,
      resources: strings, grantTypes: strings, createdAt: { type: "integer" },
      clientSecret: { type: "string", description: "only in the answer of POST /oauth/clients, for a confidential client" },
    }, ["clientId", "name", "type", "redirectUris", "scopes", "resources", "grantTypes", "createdAt"]),
    OauthGrant: grantSchema,
    OauthResource: object({ resource: { type: "string" }, name: { type: "string" }, scopes: strings, createdAt: { type: "integer" } }, ["resource", "name", "scopes", "createdAt"]),
  },
};
