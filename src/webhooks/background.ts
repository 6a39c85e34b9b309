import type { BackgroundWork } from "../core/background.js";
import { syncConfiguredEndpoints } from "./endpoints.js";
import type { EventTable } from "./events.js";
import { joinKickList, webhookDeliveryHook } from "./queue.js";
import { webhookTargetPolicy } from "./targets.js";
import { createWebhookWorker } from "./worker.js";

/**
 * Webhook deliveries as background work (core/background.ts): every event queues its deliveries in
 * its own transaction (queue.ts), and a commit kicks the worker of its own process at once; claims
 * are leased, so several instances never send one twice. A cluster's HTTP workers run none and
 * forward the kick to the primary's. The endpoints of the webhooks setting are synced once at
 * start, by the process with the "outbox" role.
 */
export function webhookBackground(table: EventTable): BackgroundWork {
  return {
    id: "webhooks",
    eventHook: webhookDeliveryHook(table),
    prepare: async (ctx, { roles }) => {
      if (roles.includes("outbox")) await syncConfiguredEndpoints(ctx, ctx.config.webhooks);
    },
    worker: ({ store, clock, logger, config }, { noteOutage }) => createWebhookWorker({
      store, clock, logger, timeoutMs: config.webhookTimeoutMs, failureLimit: config.webhookFailureLimit,
      serverSecret: config.secret, targetPolicy: webhookTargetPolicy(config), noteOutage,
    }),
    forwardKicks: (kick) => joinKickList({ kick }),
  };
}
