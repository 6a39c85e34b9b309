import { defineEventHandler, setResponseStatus } from "h3";
import { badInput } from "../core/errors.js";
import type { AdminRoute } from "../http/admin/route.js";
import { pathParam, queryParam } from "../http/admin/input.js";
import { readJsonBody } from "../http/body.js";
import type { HttpDeps } from "../http/deps.js";
import { addEndpoint, disableEndpointByOperator, enableEndpoint, listDeliveryViews, listEndpointViews, removeEndpoint, replayDelivery } from "./endpoints.js";

/** The webhooks' slice of the admin API (under /admin/v1, behind the admin key); the CLI calls the same functions. */
export const webhookAdminRoutes: readonly AdminRoute[] = [
  { method: "GET", path: "/webhooks", handler: (deps) => defineEventHandler(async () => ({ endpoints: await listEndpointViews(deps.ctx) })) },
  { method: "POST", path: "/webhooks", handler: addHandler },
  { method: "DELETE", path: "/webhooks/:id", handler: (deps) => defineEventHandler(async (event) => {
    const id = pathParam(event, "id");
    await removeEndpoint(deps.ctx, id);
    return { deleted: id };
  }) },
  { method: "POST", path: "/webhooks/:id/enable", handler: (deps) => defineEventHandler(async (event) => ({ endpoint: await enableEndpoint(deps.ctx, pathParam(event, "id"), "admin-api") })) },
  { method: "POST", path: "/webhooks/:id/disable", handler: (deps) => defineEventHandler(async (event) => ({ endpoint: await disableEndpointByOperator(deps.ctx, pathParam(event, "id"), "admin-api") })) },
  { method: "GET", path: "/webhook-deliveries", handler: deliveriesHandler }, // ?endpoint=&status=&limit=
  { method: "POST", path: "/webhook-deliveries/:id/replay", handler: (deps) => defineEventHandler(async (event) => {
    const delivery = await replayDelivery(deps.ctx, pathParam(event, "id"), "admin-api");
    setResponseStatus(event, 201);
    return { delivery };
  }) },
];

/** POST /webhooks {url, events?, description?, secret?}: the answer carries the secret, this once. */
function addHandler(deps: HttpDeps) {
  return defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    for (const k of Object.keys(body)) if (!["url", "events", "description", "secret"].includes(k)) throw badInput(`unknown field ${k}`);
    const endpoint = await addEndpoint(deps.ctx, { ...body, url: body.url });
    setResponseStatus(event, 201);
    return { endpoint };
  });
}

/** GET /webhook-deliveries: the delivery log, newest first. */
function deliveriesHandler(deps: HttpDeps) {
  return defineEventHandler(async (event) => {
    const limit = queryParam(event, "limit");
    if (limit !== undefined && !/^\d{1,4}$/.test(limit)) throw badInput("limit must be a whole number from 1 to 1000");
    return { deliveries: await listDeliveryViews(deps.ctx, { endpointId: queryParam(event, "endpoint"), status: queryParam(event, "status"), limit: limit === undefined ? undefined : Number(limit) }) };
  });
}
