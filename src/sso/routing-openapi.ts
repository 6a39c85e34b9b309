import { ADMIN_PREFIX } from "../http/admin/route.js";
import { adminOpenApi as a } from "../http/openapi/admin.js";
import { bodyErrors, json } from "../http/openapi/components.js";
import type { OpenApiArea } from "../http/openapi/types.js";

/** A route to an organization's connection (routing.ts Route). */
export const routeSchema = {
  type: "object", additionalProperties: false, required: ["connectionId", "kind", "thirdPartyId", "organizationName", "loginPath", "ssoRequired"],
  properties: {
    connectionId: { type: "string" }, kind: { type: "string", description: "saml (or oidc)" }, thirdPartyId: { type: "string", description: "the SDKs' third-party id: saml-<id> / oidc-<id>" },
    organizationName: { type: "string" }, loginPath: { type: "string", description: "where the browser starts the sign-in, under the API base path (GET, with ?redirectToPath=)" },
    ssoRequired: { type: "boolean", description: "the organization requires SSO: other ways of signing in are refused for such addresses" },
  },
};

/** The public path of routing (added to the room's area, openapi.ts). */
export const routingPaths = {
  "/sso/discover": {
    post: {
      operationId: "ssoDiscover", tags: ["enterprise-sso"],
      summary: "Whether an address's domain signs in through an organization's connection (by the domain alone: it tells nothing about accounts); limited per client IP",
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["email"], properties: { email: { type: "string" } } } } } },
      responses: { 200: json("the route, or null", { type: "object", required: ["status", "connection"], additionalProperties: false, properties: { status: { const: "OK" }, connection: { oneOf: [routeSchema, { type: "null" }] } } }), ...bodyErrors() },
    },
  },
};

const op = (id: string, summary: string, rest: Record<string, unknown>) => ({ ...a.op(id, summary, rest), tags: ["enterprise-sso-admin"] });
const org = a.param("id", "the organization's id or slug");

/** The admin API's enterprise sign-in per organization (routing-routes.ts). */
export const ssoAdminArea: OpenApiArea = {
  tag: { name: "enterprise-sso-admin", description: "Admin API: an organization's enterprise sign-in (its connections, SSO required, its SCIM token's state)" },
  prefix: () => ADMIN_PREFIX,
  paths: {
    "/organizations/{id}/sso": {
      get: op("adminGetOrganizationSso", "Its connections, whether it requires SSO, and whether it has a SCIM token (never the token)", {
        parameters: [org],
        responses: { 200: json("the state", a.object({ connections: { type: "array", items: { type: "object" } }, ssoRequired: { type: "boolean" }, scim: a.object({ token: { type: "boolean" }, tokenCreatedAt: { type: ["integer", "null"] } }) })), ...a.errorsFor(400) },
      }),
    },
    "/organizations/{id}/sso/required": {
      put: op("adminSetOrganizationSsoRequired", "Require SSO for its proven domains (true needs a connection) or stop requiring it", {
        parameters: [org], requestBody: a.body(a.object({ required: { type: "boolean" } }), true),
        responses: { 200: json("set", a.object({ ssoRequired: { type: "boolean" }, changed: { type: "boolean" } })), ...a.bodyErrors() },
      }),
    },
  },
};
