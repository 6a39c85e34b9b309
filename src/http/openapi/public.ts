import { errorsFor, json } from "./components.js";
import { apiArea, type OpenApiArea } from "./types.js";

/** Signing keys and the documents JOSE/OpenAPI tooling reads; public, cacheable for 60 s. */
export const keysArea = apiArea("keys", "Public documents: signing keys, discovery, this description", {
    "/jwt/jwks.json": {
      get: {
        operationId: "getJwks", tags: ["keys"], summary: "Public keys that verify access tokens (current and recently retired)",
        responses: {
          200: json("a JWK set", { type: "object", required: ["keys"], additionalProperties: false, properties: {
            keys: { type: "array", items: { type: "object", required: ["kty", "kid", "alg", "use"], properties: { kty: { type: "string" }, kid: { type: "string" }, alg: { type: "string" }, use: { const: "sig" } } } },
          } }),
          ...errorsFor(),
        },
      },
    },
    "/.well-known/openid-configuration": {
      get: {
        operationId: "getOpenIdConfiguration", tags: ["keys"], summary: "Issuer and JWKS location, for JOSE libraries",
        responses: {
          200: json("discovery document", { type: "object", required: ["issuer", "jwks_uri"], additionalProperties: false, properties: {
            issuer: { type: "string", format: "uri" }, jwks_uri: { type: "string", format: "uri" },
            id_token_signing_alg_values_supported: { type: "array", items: { type: "string" } },
          } }),
          ...errorsFor(),
        },
      },
    },
    "/openapi.json": {
      get: {
        operationId: "getOpenApi", tags: ["keys"], summary: "This OpenAPI 3.1 description",
        responses: { 200: json("the document", { type: "object", required: ["openapi", "paths"], properties: { openapi: { const: "3.1.0" }, paths: { type: "object" } } }), ...errorsFor() },
      },
    },
});

const health = (value: string) => ({ type: "object", required: ["status"], additionalProperties: false, properties: { status: { const: value }, reason: { type: "string" } } });
/** /readyz adds, under `serve --workers N`, how many HTTP workers are ready (the primary's view of the whole server). */
const readiness = (value: string) => {
  const h = health(value);
  return { ...h, properties: { ...h.properties, workers: { type: "object", required: ["ready", "total"], additionalProperties: false, properties: { ready: { type: "integer", minimum: 0 }, total: { type: "integer", minimum: 1 } } } } };
};

/** Liveness and readiness probes, at the server root. */
export const healthArea: OpenApiArea = {
  tag: { name: "health", description: "Probes for load balancers and orchestrators" },
  prefix: () => "",
  paths: {
    "/healthz": { get: { operationId: "getHealth", tags: ["health"], summary: "The process is alive", responses: { 200: json("alive", health("ok")) } } },
    "/readyz": {
      get: {
        operationId: "getReadiness", tags: ["health"], summary: "The database answers, migrations are applied, not shutting down; with several workers, for the whole server",
        responses: { 200: json("ready", readiness("ok")), 503: json("not ready (reason given)", readiness("unavailable")) },
      },
    },
  },
};
