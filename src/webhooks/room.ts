import type { Room } from "../kernel/room.js";
import { webhookAdminRoutes } from "./admin.js";
import { webhookBackground } from "./background.js";
import { webhookCommands } from "./commands.js";
import { webhooksDashboard } from "./dashboard.js";
import type { EventTable } from "./events.js";
import { webhooksAdminArea } from "./openapi.js";
import { webhookSettings } from "./settings.js";

declare module "../core/context.js" {
  interface RoomState {
    /** The published events (webhooks/events.ts): what an endpoint may subscribe to. */
    webhookEvents: EventTable;
  }
}

/**
 * Webhooks: endpoints managed under /admin/v1, deliveries sent by its background work (background.ts),
 * over the table of published events the composition root assembles from every room's (Room.events).
 */
export function createWebhooksRoom(table: EventTable): Room {
  return {
    id: "webhooks",
    settings: [webhookSettings(table)],
    adminRoutes: webhookAdminRoutes,
    adminOpenapi: webhooksAdminArea(table),
    init: () => ({ webhookEvents: table }),
    commands: [webhookCommands],
    background: webhookBackground(table),
    dashboardSection: webhooksDashboard,
  };
}
