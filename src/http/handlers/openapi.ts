import { defineEventHandler, removeResponseHeader, setResponseHeaders } from "h3";
import type { HttpDeps } from "../deps.js";
import { buildOpenApiDocument, servedAreas } from "../openapi/document.js";

/** GET /openapi.json: the OpenAPI 3.1 description of this server (built once, public like the JWKS). */
export const openApi = (deps: HttpDeps) => {
  const text = JSON.stringify(buildOpenApiDocument(deps.ctx.config, servedAreas(deps.ctx.config, deps.tables), deps.tables.routes));
  return defineEventHandler((event) => {
    removeResponseHeader(event, "access-control-allow-credentials");
    setResponseHeaders(event, { "access-control-allow-origin": "*", "cache-control": "max-age=60, must-revalidate" });
    return text;
  });
};
