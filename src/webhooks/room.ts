import type { Room } from "../http/room.js";
import { webhookAdminRoutes } from "./admin.js";
import { webhooksAdminArea } from "./openapi.js";
import { webhookSettings } from "./settings.js";

/** Webhooks: endpoints managed under /admin/v1 (deliveries run in the worker, app.ts). */
export const webhooksRoom: Room = {
  id: "webhooks",
  settings: [webhookSettings],
  adminRoutes: webhookAdminRoutes,
  adminOpenapi: webhooksAdminArea,
};
