import { ADMIN_PREFIX } from "../http/admin/route.js";
import { adminOpenApi } from "../http/openapi/admin.js";
import { json, ref } from "../http/openapi/components.js";
import type { OpenApiArea } from "../http/openapi/types.js";
import type { EventTable } from "./events.js";

const { op, errorsFor, bodyErrors, object, body, param, query } = adminOpenApi;
const nullable = (type: string) => ({ type: [type, "null"] });
const endpointId = param("id", "the endpoint's id");

/** The webhooks' admin routes (src/webhooks/admin.ts), described like the rest of the admin API; the event lists name the table's public types. */
export function webhooksAdminArea(table: EventTable): OpenApiArea {
  const events = { oneOf: [{ const: "*" }, { type: "array", items: { enum: [...table.types] }, minItems: 1 }] };
  return {
    tag: { name: "webhooks", description: "Webhook endpoints and their delivery log (admin API; see docs/webhooks.md)" },
    prefix: () => ADMIN_PREFIX,
    paths: {
      "/webhooks": {
        get: op("adminListWebhooks", "Every webhook endpoint (never their secrets)", { responses: { 200: json("the endpoints", object({ endpoints: { type: "array", items: ref("WebhookEndpoint") } })), ...errorsFor() } }),
        post: op("adminAddWebhook", "Register an endpoint; the answer holds its whsec_ secret, the only time it is shown", {
          requestBody: body(object({ url: { type: "string" }, events, description: { type: "string", maxLength: 200 }, secret: { type: "string", pattern: "^whsec_" } }, ["url"]), true),
          responses: { 201: json("registered", object({ endpoint: { type: "object", allOf: [ref("WebhookEndpoint")], required: ["secret"] } })), ...bodyErrors() },
        }),
      },
      "/webhooks/{id}": {
        delete: op("adminRemoveWebhook", "Remove an endpoint and its delivery log (endpoints of the webhooks setting are removed there: 400)", {
          parameters: [endpointId], responses: { 200: json("removed", object({ deleted: { type: "string" } })), ...errorsFor(400) },
        }),
      },
      "/webhooks/{id}/enable": {
        post: op("adminEnableWebhook", "Turn a disabled endpoint back on", { parameters: [endpointId], responses: { 200: json("enabled", object({ endpoint: ref("WebhookEndpoint") })), ...errorsFor(400) } }),
      },
      "/webhooks/{id}/disable": {
        post: op("adminDisableWebhook", "Turn an endpoint off by hand (400 when it is disabled already)", { parameters: [endpointId], responses: { 200: json("disabled", object({ endpoint: ref("WebhookEndpoint") })), ...errorsFor(400) } }),
      },
      "/webhook-deliveries": {
        get: op("adminListWebhookDeliveries", "The delivery log, newest first", {
          parameters: [
            query("endpoint", "only this endpoint's deliveries"),
            query("status", "only deliveries in this state", { enum: ["pending", "delivered", "failed"] }),
            query("limit", "how many", { type: "integer", minimum: 1, maximum: 1000, default: 50 }),
          ],
          responses: { 200: json("the deliveries", object({ deliveries: { type: "array", items: ref("WebhookDelivery") } })), ...errorsFor(400) },
        }),
      },
      "/webhook-deliveries/{id}/replay": {
        post: op("adminReplayWebhookDelivery", "Send a logged delivery again (same webhook-id and payload, signed anew), as a new delivery due now", {
          parameters: [param("id", "the delivery's id")], responses: { 201: json("queued", object({ delivery: ref("WebhookDelivery") })), ...errorsFor(400) },
        }),
      },
    },
    schemas: {
      WebhookEndpoint: object({
        id: { type: "string" }, url: { type: "string" }, events, description: nullable("string"), source: { enum: ["api", "config"] },
        enabled: { type: "boolean" }, failureStreak: { type: "integer" }, disabledAt: nullable("integer"), disabledReason: nullable("string"), createdAt: { type: "integer" },
        secret: { type: "string", description: "only in the answer of POST /webhooks" },
      }, ["id", "url", "events", "description", "source", "enabled", "failureStreak", "disabledAt", "disabledReason", "createdAt"]),
      WebhookDelivery: object({
        id: { type: "string" }, messageId: { type: "string", description: "the webhook-id header (the receiver's idempotency key)" }, endpointId: { type: "string" },
        type: { type: "string" }, status: { enum: ["pending", "delivered", "failed"] }, attempts: { type: "integer" },
        lastStatus: nullable("integer"), lastError: nullable("string"), lastAttemptAt: nullable("integer"), nextAttemptAt: nullable("integer"),
        deliveredAt: nullable("integer"), createdAt: { type: "integer" }, replayOf: nullable("string"),
      }),
    },
  };
}
