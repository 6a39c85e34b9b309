import type { Config } from "../../config.js";
import { sharedSchemas } from "./components.js";
import { adminArea } from "./admin.js";
import { emailPasswordArea } from "./email-password.js";
import { healthArea, keysArea } from "./public.js";
import { sessionArea } from "./session.js";
import { thirdPartyArea } from "./third-party.js";
import type { Json, OpenApiArea } from "./types.js";

/** The public API, area by area. */
export const publicAreas: readonly OpenApiArea[] = [emailPasswordArea, sessionArea, thirdPartyArea, keysArea, healthArea];
/** Everything the server answers: the public API and the admin API (described even while it is off, when it answers 404). */
export const allAreas: readonly OpenApiArea[] = [...publicAreas, adminArea];

/**
 * The OpenAPI 3.1 description for a configuration: each area's paths under its prefix, schemas
 * merged into components (a clash is a programming error, so it throws). Every path also answers
 * under the tenant prefix {apiBasePath}/public/..., which is not listed twice.
 */
export function buildOpenApiDocument(config: Readonly<Config>, areas: readonly OpenApiArea[] = allAreas): Json {
  const paths: Record<string, Json> = {};
  const schemas: Record<string, Json> = { ...sharedSchemas };
  for (const area of areas) {
    for (const [p, item] of Object.entries(area.paths)) {
      const full = area.prefix(config) + p;
      if (paths[full]) throw new Error(`OpenAPI: path ${full} is described twice`);
      paths[full] = item;
    }
    for (const [name, schema] of Object.entries(area.schemas ?? {})) {
      if (schemas[name]) throw new Error(`OpenAPI: schema ${name} is described twice`);
      schemas[name] = schema;
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "authsvc",
      version: "1",
      description: "Self-hosted user authentication, wire-compatible with the SuperTokens frontend SDKs. Business outcomes are HTTP 200 with a `status` string; malformed input is 400 `{message}`. The admin API under /admin/v1 answers with REST statuses (201, 404, 409) instead.",
    },
    servers: [{ url: config.publicUrl }],
    tags: areas.map((a) => a.tag),
    paths,
    components: {
      schemas,
      securitySchemes: {
        AccessToken: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "access token (header and body modes)" },
        AccessCookie: { type: "apiKey", in: "cookie", name: "sAccessToken", description: "cookie mode; non-GET requests add a `rid` header when SameSite=None" },
        RefreshToken: { type: "http", scheme: "bearer", description: "refresh token (header and body modes)" },
        RefreshCookie: { type: "apiKey", in: "cookie", name: "sRefreshToken" },
        AdminKey: { type: "http", scheme: "bearer", description: "the admin API key (AUTHSVC_ADMIN_API_KEY), server to server only" },
      },
    },
  };
}
