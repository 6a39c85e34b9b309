import { AuthError } from "../../core/errors.js";
import { disableEndpointByOperator, enableEndpoint, listDeliveryViews, listEndpointViews, replayDelivery, type DeliveryView, type EndpointView } from "../../webhooks/endpoints.js";
import { actionForm, DASHBOARD_PATH, done, escapeHtml, formatTime, type DashboardRequest, type DashboardResult } from "../kit.js";
import { actionOrRefusal, badge, pageOrRefusal, selectField, tableRow, tableWrap, timeOrDash } from "./parts.js";
import { launchCommand } from "../../util/launch-command.js";

const PATH = `${DASHBOARD_PATH}/webhooks`;
const DELIVERY_STATES: Array<[string, string]> = [["", "All states"], ["pending", "pending or retrying"], ["delivered", "delivered"], ["failed", "given up"]];

/**
 * GET /admin/webhooks?endpoint=&state=: the endpoints (never their secrets) with enable/disable, and
 * the newest 50 deliveries with their state; a finished delivery can be sent again (a replay, as
 * `authsvc webhooks replay` does: same webhook-id and payload).
 */
export async function showWebhooks(r: DashboardRequest): Promise<DashboardResult> {
  const endpointId = r.query.get("endpoint") || undefined;
  const state = r.query.get("state") || undefined;
  return pageOrRefusal(r, { title: "Webhooks", section: PATH }, async () => {
    const endpoints = await listEndpointViews(r.ctx);
    if (endpointId && !endpoints.some((e) => e.id === endpointId)) throw new AuthError("NOT_FOUND", "No such webhook endpoint");
    const deliveries = await listDeliveryViews(r.ctx, { endpointId, status: state, limit: 50 });
    const urlOf = new Map(endpoints.map((e) => [e.id, e.url]));
    const filter = `<form method="get" action="${PATH}#deliveries" class="actions">${selectField("endpoint", "Endpoint", [["", "All endpoints"], ...endpoints.map((e): [string, string] => [e.id, e.url])], endpointId)}${selectField("state", "State", DELIVERY_STATES, state)}<button type="submit">Show</button></form>`;
    return `<section class="panel" aria-labelledby="endpoints"><h2 id="endpoints">Endpoints</h2>
${tableWrap("Webhook endpoints", ["URL", "Events", "From", "State", "Failures in a row", "Actions"], endpoints.map((e) => renderEndpoint(r, e)), { html: `No webhook endpoints. Add one with <code>${escapeHtml(launchCommand())} webhooks add</code>, the admin API, or the <code>webhooks</code> setting (see docs/webhooks.md).` })}
</section>
<section class="panel" aria-labelledby="deliveries"><h2 id="deliveries">Deliveries</h2>
<p class="muted">The newest 50 (of the last 30 days), newest first.</p>
${filter}
${tableWrap("Webhook deliveries, newest first", ["Created", "Event", "Endpoint", "State", "Attempts", "Last answer", "Next attempt", "Actions"], deliveries.map((d) => renderDelivery(r, d, urlOf.get(d.endpointId))), "No deliveries match.")}
</section>`;
  });
}

function renderEndpoint(r: DashboardRequest, e: EndpointView): string {
  const state = e.enabled ? badge("enabled", "ok") : `${badge("disabled", "bad")}<br><span class="muted">${formatTime(e.disabledAt)}: ${escapeHtml(e.disabledReason ?? "")}</span>`;
  const who = `<span class="sr-only"> endpoint ${escapeHtml(e.url)}</span>`;
  const action = e.enabled
    ? actionForm(r, { action: `${PATH}/${encodeURIComponent(e.id)}/disable`, label: "Disable", danger: true })
    : actionForm(r, { action: `${PATH}/${encodeURIComponent(e.id)}/enable`, label: "Enable" });
  return tableRow([
    `<span class="mono">${escapeHtml(e.url)}</span>`, escapeHtml(e.events === "*" ? "all events" : e.events.join(", ")), escapeHtml(e.source === "config" ? "setting" : "CLI / API"),
    state, String(e.failureStreak), action.replace("</button>", `${who}</button>`),
  ]);
}

function renderDelivery(r: DashboardRequest, d: DeliveryView, url: string | undefined): string {
  const st = d.status === "delivered" ? badge("delivered", "ok") : d.status === "failed" ? badge("given up", "bad") : d.attempts > 0 ? badge("retrying", "warn") : badge("pending", "");
  const last = d.lastStatus !== null ? `HTTP ${d.lastStatus}` : "";
  const err = d.lastError ? `<span class="mono">${escapeHtml(d.lastError)}</span>` : "";
  const replay = d.status === "pending" ? "" : actionForm(r, { action: `${PATH}/deliveries/${encodeURIComponent(d.id)}/replay`, label: "Send again" })
    .replace("</button>", `<span class="sr-only"> delivery ${escapeHtml(d.id)}</span></button>`);
  return tableRow([
    formatTime(d.createdAt), escapeHtml(d.type), `<span class="mono">${escapeHtml(url ?? d.endpointId)}</span>`, `${st}${d.replayOf ? `<br><span class="muted">replay</span>` : ""}`,
    String(d.attempts), [last, err].filter(Boolean).join("<br>") || "–", timeOrDash(d.nextAttemptAt), replay,
  ]);
}

/** POST /admin/webhooks/:id/enable */
export async function enableWebhook(r: DashboardRequest): Promise<DashboardResult> {
  return actionOrRefusal(PATH, async () => {
    const e = await enableEndpoint(r.ctx, r.params.id ?? "", r.source);
    return done(PATH, `Enabled ${e.url}.`);
  });
}

/** POST /admin/webhooks/:id/disable */
export async function disableWebhook(r: DashboardRequest): Promise<DashboardResult> {
  return actionOrRefusal(PATH, async () => {
    const e = await disableEndpointByOperator(r.ctx, r.params.id ?? "", r.source);
    return done(PATH, `Disabled ${e.url}: its events wait, queued, and go out when it is enabled again.`);
  });
}

/** POST /admin/webhooks/deliveries/:id/replay */
export async function replayWebhookDelivery(r: DashboardRequest): Promise<DashboardResult> {
  return actionOrRefusal(PATH, async () => {
    const d = await replayDelivery(r.ctx, r.params.id ?? "", r.source);
    return done(PATH, `Queued ${d.id} (a replay of ${d.replayOf}).`);
  });
}
