import { defineEventHandler, removeResponseHeader, setResponseHeaders, type H3Event } from "h3";
import { issuerOf } from "../../core/access-tokens.js";
import type { HttpDeps } from "../deps.js";

/** Public documents: any origin may read them, without credentials; caches may keep them 60 s. */
function makePublic(event: H3Event): void {
  removeResponseHeader(event, "access-control-allow-credentials");
  setResponseHeaders(event, { "access-control-allow-origin": "*", "cache-control": "max-age=60, must-revalidate" });
}

/** GET /jwt/jwks.json: the current key and retired keys whose tokens may still be valid. */
export const jwks = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    makePublic(event);
    return deps.ctx.keys.jwks();
  });

/** GET /.well-known/openid-configuration: issuer and JWKS location for JOSE libraries. */
export const openidConfiguration = (deps: HttpDeps) =>
  defineEventHandler((event) => {
    makePublic(event);
    const issuer = issuerOf(deps.ctx.config);
    return { issuer, jwks_uri: `${issuer}/jwt/jwks.json`, id_token_signing_alg_values_supported: ["RS256"] };
  });
