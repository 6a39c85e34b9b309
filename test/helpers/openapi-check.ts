import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { testConfig } from "../../src/config.js";
import { buildOpenApiDocument } from "../../src/http/openapi/document.js";
import { tables } from "../../src/rooms.js";

/**
 * Checks real answers of the server against the OpenAPI document (ajv, JSON Schema 2020-12 as
 * OpenAPI 3.1 uses it). Only operations the document describes are checked; the status must be one
 * the operation lists, and a JSON body must match its schema.
 */
export const document = buildOpenApiDocument(testConfig(), [...tables.publicAreas, ...tables.adminAreas], tables.routes) as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }>; headers?: Record<string, { required?: boolean }> }> }>>;
};
const base = testConfig().apiBasePath;

const ajv = new Ajv2020({ strict: true, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
// The document's top-level keys are OpenAPI, not JSON Schema; declared so strict mode accepts them.
ajv.addVocabulary(["openapi", "info", "servers", "tags", "paths", "components"]);
ajv.addSchema(document, "openapi.json");
const compiled = new Map<string, ValidateFunction>();

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

// Paths with parameters (the admin API's /users/{id}) as patterns: a parameter is one non-empty segment.
const templates = Object.keys(document.paths).filter((p) => p.includes("{")).map((p) => ({
  path: p,
  pattern: new RegExp(`^${p.split(/\{[^}]+\}/).map((s) => s.replace(/[.*+?^$()|[\]\\]/g, "\\$&")).join("[^/]+")}$`),
}));

/** The described path for a request path (tenant prefix /auth/public/... → /auth/...), if any. */
export function describedPath(pathname: string): string | undefined {
  const p = pathname.startsWith(`${base}/public/`) ? base + pathname.slice(base.length + "/public".length) : pathname;
  if (document.paths[p]) return p;
  return templates.find((t) => t.pattern.test(p))?.path;
}

/**
 * Problems with one answer, as sentences; empty when it matches the document. With `headers`, the
 * response headers the document marks required (the admin 401's WWW-Authenticate) must be there.
 */
export function checkAnswer(method: string, pathname: string, status: number, contentType: string | null, bodyText: string, headers?: Headers): string[] {
  const path = describedPath(pathname);
  const m = method.toLowerCase() === "head" ? "get" : method.toLowerCase();
  const op = path ? document.paths[path][m] : undefined;
  if (!path || !op) return [];
  const where = `${method} ${pathname} → ${status}`;
  const response = op.responses[String(status)];
  if (!response) return [`${where}: status ${status} is not described (described: ${Object.keys(op.responses).join(", ")})`];
  const missing = Object.entries(response.headers ?? {}).filter(([name, h]) => h.required && headers && !headers.has(name)).map(([name]) => name);
  if (missing.length) return [`${where}: required header ${missing.join(", ")} is missing`];
  if (!response.content || method === "HEAD") return [];
  if (!contentType?.startsWith("application/json")) return [`${where}: content-type ${contentType}, described as application/json`];
  let body: unknown;
  try { body = JSON.parse(bodyText); } catch { return [`${where}: body is not JSON: ${bodyText.slice(0, 200)}`]; }
  const key = pointer("paths", path, m, "responses", String(status), "content", "application/json", "schema");
  let validate = compiled.get(key);
  if (!validate) { validate = ajv.compile({ $ref: `openapi.json#/${key}` }); compiled.set(key, validate); }
  if (validate(body)) return [];
  return [`${where}: body does not match the document: ${ajv.errorsText(validate.errors, { separator: "; " })}\n  body: ${bodyText.slice(0, 500)}`];
}
