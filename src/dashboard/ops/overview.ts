import { PEOPLE_COUNT_TTL_MS, readOverview } from "../../core/ops-views.js";
import { DASHBOARD_PATH, escapeHtml, formatTime, type DashboardRequest, type DashboardResult } from "../kit.js";
import { renderDashboardPage } from "../layout.js";
import { renderRecentAdminActions } from "./admin-actions.js";

const number = (n: number) => n.toLocaleString("en-US");

/** One figure of the overview: the number, what it counts, and where to look closer. */
function stat(value: number, label: string, href?: string, note?: string): string {
  const text = `<span class="value">${number(value)}</span> ${escapeHtml(label)}`;
  return `<li>${href ? `<a href="${escapeHtml(href)}">${text}</a>` : text}${note ? `<br><span class="muted">${note}</span>` : ""}</li>`;
}

/**
 * GET /admin: a few numbers at a glance and the newest admin actions. Today's figures are live
 * (index ranges); the people count is at most a minute old (core/ops-views.ts says why). The rooms'
 * figures (Room.dashboardSection's stats) follow the kernel's, in the rooms' order.
 */
export async function showOverview(r: DashboardRequest): Promise<DashboardResult> {
  const [o, ...rooms] = await Promise.all([readOverview(r.ctx), ...r.deps.tables.dashboardSections.map(async (s) => (await s.stats?.(r.ctx)) ?? [])]);
  const stats = [
    stat(o.people.count, "people", `${DASHBOARD_PATH}/users`, `counted ${formatTime(o.people.countedAt)}; recounted after ${PEOPLE_COUNT_TTL_MS / 60_000} minute`),
    stat(o.today.signIns, "sign-ins today"),
    stat(o.today.failedSignIns, "failed sign-ins today"),
    stat(o.today.signUps, "sign-ups today"),
    stat(o.mail.pending, "mails waiting", `${DASHBOARD_PATH}/outbox?state=pending`),
    stat(o.mail.retrying, "mails failing, retried", `${DASHBOARD_PATH}/outbox?state=retrying`),
    stat(o.mail.failed, "mails given up", `${DASHBOARD_PATH}/outbox?state=failed`),
    ...rooms.flat().map((s) => stat(s.count, s.label, s.href === undefined ? undefined : `${DASHBOARD_PATH}/${s.href}`)),
  ];
  const main = `<section class="panel" aria-labelledby="glance"><h2 id="glance">At a glance</h2>
<p class="muted">"Today" is since ${formatTime(o.today.since)}. A sign-in is a session started (a sign-up starts one too); a failed sign-in is a wrong email or password.</p>
<ul class="stats">${stats.join("")}</ul></section>
${await renderRecentAdminActions(r)}`;
  return renderDashboardPage(r, { title: "Overview", section: DASHBOARD_PATH, main });
}
