import { defineEventHandler, setResponseStatus } from "h3";
import { badInput } from "../core/errors.js";
import type { AdminRoute } from "../http/admin/route.js";
import { pathParam, queryParam } from "../http/admin/input.js";
import { readJsonBody } from "../http/body.js";
import type { HttpDeps } from "../http/deps.js";
import { createClient, createResource, deleteClient, deleteResource, listClientViews, listResourceViews } from "./clients.js";

const only = (body: Record<string, unknown>, allowed: string[]) => {
  for (const k of Object.keys(body)) if (!allowed.includes(k)) throw badInput(`unknown field ${k}`);
};

/** The provider's slice of the admin API (under /admin/v1, behind the admin key); the CLI calls the same functions. */
export const oauthAdminRoutes: readonly AdminRoute[] = [
  { method: "GET", path: "/oauth/clients", handler: (deps) => defineEventHandler(async () => ({ clients: await listClientViews(deps.ctx) })) },
  { method: "POST", path: "/oauth/clients", handler: (deps: HttpDeps) => defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    only(body, ["name", "type", "redirectUris", "scopes", "resources", "grantTypes"]);
    const client = await createClient(deps.ctx, { ...body, name: body.name }, "admin-api");
    setResponseStatus(event, 201);
    return { client };
  }) },
  { method: "DELETE", path: "/oauth/clients/:id", handler: (deps) => defineEventHandler(async (event) => {
    const id = pathParam(event, "id");
    await deleteClient(deps.ctx, id, "admin-api");
    return { deleted: id };
  }) },
  { method: "GET", path: "/oauth/resources", handler: (deps) => defineEventHandler(async () => ({ resources: await listResourceViews(deps.ctx) })) },
  { method: "POST", path: "/oauth/resources", handler: (deps: HttpDeps) => defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    only(body, ["resource", "name", "scopes"]);
    const resource = await createResource(deps.ctx, { ...body, resource: body.resource }, "admin-api");
    setResponseStatus(event, 201);
    return { resource };
  }) },
  // The resource is a URL: it travels as ?resource= rather than as a path segment.
  { method: "DELETE", path: "/oauth/resources", handler: (deps) => defineEventHandler(async (event) => {
    const resource = queryParam(event, "resource");
    if (!resource) throw badInput("resource (the resource's URL) is required");
    await deleteResource(deps.ctx, resource, "admin-api");
    return { deleted: resource };
  }) },
];
