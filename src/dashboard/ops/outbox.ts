import { listOutbox, OUTBOX_STATES, type OutboxState, type OutboxView } from "../../core/ops-views.js";
import { DASHBOARD_PATH, escapeHtml, formatTime, type DashboardRequest, type DashboardResult } from "../kit.js";
import { badge, pageOrRefusal, selectField, tableRow, tableWrap, timeOrDash, type BadgeKind } from "./parts.js";

const PATH = `${DASHBOARD_PATH}/outbox`;

const STATE_TEXT: Record<OutboxState, [string, BadgeKind]> = {
  pending: ["pending", ""], sending: ["sending", "warn"], retrying: ["retrying", "warn"], sent: ["sent", "ok"], failed: ["given up", "bad"],
};

/**
 * GET /admin/outbox?state=&after=: the mail queue, newest first, a page at a time. Never a body or
 * a header: the bodies hold sign-in and reset links (the core does not even read them). A given-up
 * message cannot be sent again from here: its body was scrubbed when it was given up, for the same reason.
 */
export async function showOutbox(r: DashboardRequest): Promise<DashboardResult> {
  const state = r.query.get("state") || undefined;
  const after = r.query.get("after") || undefined;
  return pageOrRefusal(r, { title: "Mail outbox", section: PATH }, async () => {
    const page = await listOutbox(r.ctx, { state, after });
    const filter = `<form method="get" action="${PATH}" class="actions">${selectField("state", "State", [["", "All states"], ...OUTBOX_STATES.map((s): [string, string] => [s, STATE_TEXT[s][0]])], state)}<button type="submit">Show</button></form>`;
    const rows = page.items.map(renderMessage);
    const first = `${PATH}${state ? `?state=${encodeURIComponent(state)}` : ""}`;
    const links = [
      page.next ? `<a href="${escapeHtml(`${PATH}?${new URLSearchParams({ ...(state ? { state } : {}), after: page.next })}`)}">Older messages</a>` : "",
      after ? `<a href="${escapeHtml(first)}">Newest messages</a>` : "",
    ].filter(Boolean);
    const next = links.length ? `<nav class="pager" aria-label="Pages">${links.join(" ")}</nav>` : "";
    return `<p class="muted">Messages wait here until the relay accepts them; sent and given-up ones are kept 7 days. What a mail says is never shown: it holds sign-in and reset links.</p>
${filter}
${tableWrap("Queued mail, newest first", ["Created", "Kind", "Recipient", "State", "Attempts", "Last error", "Sent"], rows, state ? `No ${STATE_TEXT[state as OutboxState][0]} messages.` : "The outbox is empty.")}
${next}`;
  });
}

function renderMessage(m: OutboxView): string {
  const [text, kind] = STATE_TEXT[m.state];
  const next = m.nextAttemptAt !== null ? `<br><span class="muted">next attempt ${formatTime(m.nextAttemptAt)}</span>` : "";
  return tableRow([
    formatTime(m.createdAt), escapeHtml(m.kind), `<span class="mono">${escapeHtml(m.to)}</span>`, `${badge(text, kind)}${next}`,
    String(m.attempts), m.lastError ? `<span class="mono">${escapeHtml(m.lastError)}</span>` : "–", timeOrDash(m.sentAt),
  ]);
}
