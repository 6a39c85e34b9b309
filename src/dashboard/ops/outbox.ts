import { retryMailNow } from "../../core/mail-retry.js";
import { listOutbox, OUTBOX_STATES, type OutboxState, type OutboxView } from "../../core/ops-views.js";
import { actionForm, DASHBOARD_PATH, done, escapeHtml, formatTime, type DashboardRequest, type DashboardResult } from "../kit.js";
import { actionOrRefusal, badge, pageOrRefusal, selectField, tableRow, tableWrap, timeOrDash, type BadgeKind } from "./parts.js";

const PATH = `${DASHBOARD_PATH}/outbox`;

const STATE_TEXT: Record<OutboxState, [string, BadgeKind]> = {
  pending: ["pending", ""], sending: ["sending", "warn"], retrying: ["retrying", "warn"], sent: ["sent", "ok"], failed: ["given up", "bad"],
};

/**
 * GET /admin/outbox?state=&after=: the mail queue, newest first, a page at a time. Never a body or
 * a header: the bodies hold sign-in and reset links (the core does not even read them). A failing
 * message can be sent now; a given-up one cannot: its body was erased when it was given up, for the same reason.
 */
export async function showOutbox(r: DashboardRequest): Promise<DashboardResult> {
  const state = r.query.get("state") || undefined;
  const after = r.query.get("after") || undefined;
  return pageOrRefusal(r, { title: "Mail outbox", section: PATH }, async () => {
    const page = await listOutbox(r.ctx, { state, after });
    const filter = `<form method="get" action="${PATH}" class="actions">${selectField("state", "State", [["", "All states"], ...OUTBOX_STATES.map((s): [string, string] => [s, STATE_TEXT[s][0]])], state)}<button type="submit">Show</button></form>`;
    const rows = page.items.map((m) => renderMessage(r, m));
    const first = `${PATH}${state ? `?state=${encodeURIComponent(state)}` : ""}`;
    const links = [
      page.next ? `<a href="${escapeHtml(`${PATH}?${new URLSearchParams({ ...(state ? { state } : {}), after: page.next })}`)}">Older messages</a>` : "",
      after ? `<a href="${escapeHtml(first)}">Newest messages</a>` : "",
    ].filter(Boolean);
    const next = links.length ? `<nav class="pager" aria-label="Pages">${links.join(" ")}</nav>` : "";
    return `<p class="muted">Messages wait here until the relay accepts them; sent and given-up ones are kept 7 days. What a mail says is never shown: it holds sign-in and reset links.</p>
${filter}
${tableWrap("Queued mail, newest first", ["Created", "Kind", "Recipient", "State", "Attempts", "Last error", "Sent", "Actions"], rows, state ? `No ${STATE_TEXT[state as OutboxState][0]} messages.` : "The outbox is empty.")}
${next}`;
  });
}

function renderMessage(r: DashboardRequest, m: OutboxView): string {
  const [text, kind] = STATE_TEXT[m.state];
  const next = m.nextAttemptAt !== null ? `<br><span class="muted">next attempt ${formatTime(m.nextAttemptAt)}</span>` : "";
  const now = m.state === "retrying"
    ? actionForm(r, { action: `${PATH}/${encodeURIComponent(m.id)}/retry`, label: "Send now" }).replace("</button>", `<span class="sr-only"> the ${escapeHtml(m.kind)} mail to ${escapeHtml(m.to)}</span></button>`)
    : "";
  return tableRow([
    formatTime(m.createdAt), escapeHtml(m.kind), `<span class="mono">${escapeHtml(m.to)}</span>`, `${badge(text, kind)}${next}`,
    String(m.attempts), m.lastError ? `<span class="mono">${escapeHtml(m.lastError)}</span>` : "–", timeOrDash(m.sentAt), now,
  ]);
}

/** POST /admin/outbox/:id/retry: a failing message goes out now, as `authsvc mail retry` does. */
export async function retryOutboxMessage(r: DashboardRequest): Promise<DashboardResult> {
  return actionOrRefusal(PATH, async () => {
    await retryMailNow(r.ctx, r.params.id ?? "", r.source);
    return done(PATH, "The message is due now; the outbox worker sends it at once.");
  });
}
