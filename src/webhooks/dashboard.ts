import { AuthError } from "../core/errors.js";
import type { DashboardSectionKit, DashboardSectionPart } from "../http/dashboard-sections.js";
import { launchCommand } from "../util/launch-command.js";
import { disableEndpointByOperator, enableEndpoint, listDeliveryViews, listEndpointViews, replayDelivery, type DeliveryView, type EndpointView } from "./endpoints.js";
import { countDeliveries } from "./store.js";

const DELIVERY_STATES: Array<[string, string]> = [["", "All states"], ["pending", "pending or retrying"], ["delivered", "delivered"], ["failed", "given up"]];

/**
 * The webhooks' section of the admin dashboard (/admin/webhooks?endpoint=&state=): the endpoints
 * (never their secrets) with enable/disable, and the newest 50 deliveries with their state; a
 * finished delivery can be sent again (a replay, as `authsvc webhooks replay` does: same webhook-id
 * and payload). The overview counts the deliveries waiting and given up.
 */
export const webhooksDashboard: DashboardSectionPart = {
  path: "webhooks",
  label: "Webhooks",
  after: "outbox",
  pages: [
    {
      path: "",
      title: "Webhooks",
      render: async (ctx, _params, kit, query) => {
        const endpointId = query.get("endpoint") || undefined;
        const state = query.get("state") || undefined;
        const endpoints = await listEndpointViews(ctx);
        if (endpointId && !endpoints.some((e) => e.id === endpointId)) throw new AuthError("NOT_FOUND", "No such webhook endpoint");
        const deliveries = await listDeliveryViews(ctx, { endpointId, status: state, limit: 50 });
        const urlOf = new Map(endpoints.map((e) => [e.id, e.url]));
        const filter = `<form method="get" action="${kit.href("webhooks")}#deliveries" class="actions">${kit.select("endpoint", "Endpoint", [["", "All endpoints"], ...endpoints.map((e): [string, string] => [e.id, e.url])], endpointId)}${kit.select("state", "State", DELIVERY_STATES, state)}<button type="submit">Show</button></form>`;
        return `<section class="panel" aria-labelledby="endpoints"><h2 id="endpoints">Endpoints</h2>
${kit.table("Webhook endpoints", ["URL", "Events", "From", "State", "Failures in a row", "Actions"], endpoints.map((e) => renderEndpoint(kit, e)), { html: `No webhook endpoints. Add one with <code>${kit.escape(launchCommand())} webhooks add</code>, the admin API, or the <code>webhooks</code> setting (see docs/webhooks.md).` })}
</section>
<section class="panel" aria-labelledby="deliveries"><h2 id="deliveries">Deliveries</h2>
<p class="muted">The newest 50 (of the last 30 days), newest first.</p>
${filter}
${kit.table("Webhook deliveries, newest first", ["Created", "Event", "Endpoint", "State", "Attempts", "Last answer", "Next attempt", "Actions"], deliveries.map((d) => renderDelivery(kit, d, urlOf.get(d.endpointId))), "No deliveries match.")}
</section>`;
      },
    },
  ],
  actions: [
    {
      path: "/:id/enable",
      run: async (ctx, params, { source }) => {
        const e = await enableEndpoint(ctx, params.id ?? "", source);
        return { kind: "ok", text: `Enabled ${e.url}.` };
      },
    },
    {
      path: "/:id/disable",
      run: async (ctx, params, { source }) => {
        const e = await disableEndpointByOperator(ctx, params.id ?? "", source);
        return { kind: "ok", text: `Disabled ${e.url}: its events wait, queued, and go out when it is enabled again.` };
      },
    },
    {
      path: "/deliveries/:id/replay",
      run: async (ctx, params, { source }) => {
        const d = await replayDelivery(ctx, params.id ?? "", source);
        return { kind: "ok", text: `Queued ${d.id} (a replay of ${d.replayOf}).` };
      },
    },
  ],
  stats: async (ctx) => {
    const n = await countDeliveries(ctx.store.db);
    return [
      { count: n.pending, label: "webhook deliveries waiting", href: "webhooks?state=pending#deliveries" },
      { count: n.failed, label: "webhook deliveries given up", href: "webhooks?state=failed#deliveries" },
    ];
  },
  // enabled, disabled, replayed: what an admin does here.
  auditPrefixes: ["webhook."],
};

function renderEndpoint(kit: DashboardSectionKit, e: EndpointView): string {
  const state = e.enabled ? kit.badge("enabled", "ok") : `${kit.badge("disabled", "bad")}<br><span class="muted">${kit.time(e.disabledAt)}: ${kit.escape(e.disabledReason ?? "")}</span>`;
  const path = `webhooks/${encodeURIComponent(e.id)}`;
  const action = e.enabled
    ? kit.button(`${path}/disable`, "Disable", `endpoint ${e.url}`, { danger: true })
    : kit.button(`${path}/enable`, "Enable", `endpoint ${e.url}`);
  return kit.row([
    `<span class="mono">${kit.escape(e.url)}</span>`, kit.escape(e.events === "*" ? "all events" : e.events.join(", ")), kit.escape(e.source === "config" ? "setting" : "CLI / API"),
    state, String(e.failureStreak), action,
  ]);
}

function renderDelivery(kit: DashboardSectionKit, d: DeliveryView, url: string | undefined): string {
  const st = d.status === "delivered" ? kit.badge("delivered", "ok") : d.status === "failed" ? kit.badge("given up", "bad") : d.attempts > 0 ? kit.badge("retrying", "warn") : kit.badge("pending", "");
  const last = d.lastStatus !== null ? `HTTP ${d.lastStatus}` : "";
  const err = d.lastError ? `<span class="mono">${kit.escape(d.lastError)}</span>` : "";
  const replay = d.status === "pending" ? "" : kit.button(`webhooks/deliveries/${encodeURIComponent(d.id)}/replay`, "Send again", `delivery ${d.id}`);
  return kit.row([
    kit.time(d.createdAt), kit.escape(d.type), `<span class="mono">${kit.escape(url ?? d.endpointId)}</span>`, `${st}${d.replayOf ? `<br><span class="muted">replay</span>` : ""}`,
    String(d.attempts), [last, err].filter(Boolean).join("<br>") || "–", d.nextAttemptAt === null ? "–" : kit.time(d.nextAttemptAt), replay,
  ]);
}
