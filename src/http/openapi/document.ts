import type { Config } from "../../config/types.js";
import { sharedSchemas } from "./components.js";
import { adminArea } from "./admin.js";
import { healthArea, keysArea } from "./public.js";
import { sessionArea } from "./session.js";
import type { DocumentParts, Json, OpenApiArea } from "./types.js";
import { sessionNeedOf } from "../guard.js";
import type { Route, SessionNeed } from "../route.js";

/** The kernel's own areas; the rooms add theirs (src/kernel/room.ts), and src/rooms.ts orders them all. */
export { adminArea, healthArea, keysArea, sessionArea };

const COOKIE_SCHEMES = new Set(["AccessCookie", "RefreshCookie"]);
const crossOriginRefused = "a cookie-authenticated request that changes state without a `rid` header or a JSON content type (docs/security.md, \"Cross-site requests\")";

/**
 * Every operation that accepts a session cookie and changes state can answer 403 `{message}` to a
 * request from another origin (session-guard.ts assertNotCrossOrigin): added here once, next to a
 * claim check's 403 where the operation has one, rather than in each area.
 */
function withCookieRefusals(item: Json): Json {
  const out: Record<string, Json> = {};
  for (const [method, op] of Object.entries(item as Record<string, Json>)) {
    const o = op as { security?: Array<Record<string, unknown>>; responses?: Record<string, Json> };
    const byCookie = method !== "get" && o.security?.some((s) => Object.keys(s).some((k) => COOKIE_SCHEMES.has(k)));
    if (!byCookie || !o.responses) { out[method] = op; continue; }
    const claim = o.responses["403"] as { content?: { "application/json": { schema: Json } } } | undefined;
    const schema = claim?.content ? { anyOf: [claim.content["application/json"].schema, { $ref: "#/components/schemas/Message" }] } : { $ref: "#/components/schemas/Message" };
    const description = claim ? `a claim check failed, or ${crossOriginRefused}` : crossOriginRefused;
    out[method] = { ...o, responses: { ...o.responses, 403: { description, content: { "application/json": { schema } } } } };
  }
  return out;
}

const withSession: unknown[] = [{ AccessToken: [] }, { AccessCookie: [] }];
/** The security requirement of each session a route may declare (Route.session); none and optional leave the area's. */
const SECURITY: Partial<Record<SessionNeed, unknown[]>> = {
  required: withSession, "required+db": withSession, "if sent": [...withSession, {}], refresh: [{ RefreshToken: [] }, { RefreshCookie: [] }],
};

/** Each route's security requirement from who may call it (the guard the kernel applies), by "method path" as the document writes it. */
function declaredSecurity(config: Readonly<Config>, routes: readonly Route[]): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const r of routes) {
    const security = SECURITY[sessionNeedOf(r, config)];
    if (security) out.set(`${r.method.toLowerCase()} ${(r.root ? r.path : config.apiBasePath + r.path).replace(/:(\w+)/g, "{$1}")}`, security);
  }
  return out;
}

function withDeclaredSecurity(path: string, item: Json, declared: Map<string, unknown[]>): Json {
  const out: Record<string, Json> = {};
  for (const [method, op] of Object.entries(item as Record<string, Json>)) {
    const security = declared.get(`${method} ${path}`);
    out[method] = security ? { ...(op as Record<string, Json>), security } : op;
  }
  return out;
}

/**
 * What this configuration serves: the admin API only when it is on (AUTHSVC_ADMIN_API_KEY set).
 * The document is public (CORS *), so an instance without the admin API does not advertise one.
 */
export function servedAreas(config: Readonly<Config>, areas: { publicAreas: readonly OpenApiArea[]; adminAreas: readonly OpenApiArea[] }): readonly OpenApiArea[] {
  return config.adminApiKey ? [...areas.publicAreas, ...areas.adminAreas] : areas.publicAreas;
}

/**
 * The OpenAPI 3.1 description for a configuration: each area's paths under its prefix, schemas
 * merged into components (a clash is a programming error, so it throws). Every path also answers
 * under the tenant prefix {apiBasePath}/public/..., which is not listed twice. Each route's security
 * requirement comes from who may call it in the route table (`routes`), not from its area.
 */
export function buildOpenApiDocument(config: Readonly<Config>, areas: readonly OpenApiArea[], routes: readonly Route[]): Json {
  const declared = declaredSecurity(config, routes);
  const admin = areas.some((a) => a.tag.name === adminArea.tag.name);
  const shared = sharedSchemas(areas.flatMap((a) => (a.user ? [a.user] : [])));
  const parts: DocumentParts = { userCreation: areas.flatMap((a) => (a.adminUserCreation ? [a.adminUserCreation] : [])) };
  const paths: Array<[string, Json]> = [];
  const schemas: Array<[string, Json]> = Object.entries(shared);
  // An area with ordering hints joins another's tag: placed once the others are.
  const ordered = [...areas.filter((a) => !a.after), ...areas.filter((a) => a.after)];
  for (const area of ordered) {
    const prefix = area.prefix(config);
    const own = Object.entries(area.paths).map(([p, item]): [string, Json] => [prefix + p, withCookieRefusals(withDeclaredSecurity(prefix + p, typeof item === "function" ? item(parts) : item, declared))]);
    for (const [full] of own) if (paths.some(([p]) => p === full)) throw new Error(`OpenAPI: path ${full} is described twice`);
    insertAfter(paths, own, area.after && prefix + area.after.path);
    const mine = Object.entries(area.schemas ?? {}).map(([name, schema]): [string, Json] => [name, typeof schema === "function" ? schema(shared) : schema]);
    for (const [name] of mine) if (schemas.some(([n]) => n === name)) throw new Error(`OpenAPI: schema ${name} is described twice`);
    insertAfter(schemas, mine, area.after?.schema);
  }
  const tags = [...new Map(ordered.map((a) => [a.tag.name, a.tag])).values()];
  return {
    openapi: "3.1.0",
    info: {
      title: "authsvc",
      version: "1",
      description: "Self-hosted user authentication, wire-compatible with the SuperTokens frontend SDKs. Business outcomes are HTTP 200 with a `status` string; malformed input is 400 `{message}`."
        + (admin ? " The admin API under /admin/v1 answers with REST statuses (201, 404, 409) instead." : "")
        + (config.mode === "development" ? " In development mode every route answers 403 `{message}` to a Host header that is neither loopback nor the public URL's host (DNS rebinding)." : ""),
    },
    servers: [{ url: config.publicUrl }],
    tags,
    paths: Object.fromEntries(paths),
    components: {
      schemas: Object.fromEntries(schemas),
      securitySchemes: {
        AccessToken: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "access token (header and body modes)" },
        AccessCookie: { type: "apiKey", in: "cookie", name: "sAccessToken", description: "cookie mode; a non-GET request adds a `rid` header or a JSON content type (and always `rid` when SameSite=None)" },
        RefreshToken: { type: "http", scheme: "bearer", description: "refresh token (header and body modes)" },
        RefreshCookie: { type: "apiKey", in: "cookie", name: "sRefreshToken" },
        ...(admin ? { AdminKey: { type: "http", scheme: "bearer", description: "the admin API key (AUTHSVC_ADMIN_API_KEY), server to server only" } } : {}),
      },
    },
  };
}

/** Puts `more` right after the entry named `anchor` (a programming error when it is missing), or at the end. */
function insertAfter(list: Array<[string, Json]>, more: Array<[string, Json]>, anchor: string | undefined): void {
  if (anchor === undefined) { list.push(...more); return; }
  const at = list.findIndex(([name]) => name === anchor);
  if (at < 0) throw new Error(`OpenAPI: ${anchor} is not in the document, so nothing can follow it`);
  list.splice(at + 1, 0, ...more);
}
