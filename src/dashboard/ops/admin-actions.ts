import { listRecentAdminEvents } from "../accounts/store.js";
import { DASHBOARD_PATH, escapeHtml, formatTime, type DashboardRequest } from "../kit.js";
import { tableRow, tableWrap } from "./parts.js";

/** Where an event's subject is looked at closer, by the prefix of its type: the dashboard's own sections, then the rooms' (Room.dashboardSection). */
const SECTION_OF: ReadonlyArray<readonly [string, string]> = [["signing_key.", "keys"], ["user.", "users"], ["session", "users"], ["mfa.", "users"]];

/**
 * The overview's newest ten admin actions (events naming an admin: the dashboard passes
 * `admin:<id>` as the source of every core call), with a link to the section each concerns.
 */
export async function renderRecentAdminActions(r: DashboardRequest): Promise<string> {
  const events = await listRecentAdminEvents(r.ctx.store.db, 10);
  const sectionOf = [...SECTION_OF, ...r.deps.tables.dashboardSections.flatMap((s) => (s.auditPrefixes ?? []).map((prefix) => [prefix, s.path] as const))];
  const rows = events.map((e) => {
    const section = sectionOf.find(([prefix]) => e.type.startsWith(prefix))?.[1];
    const what = section ? `<a href="${DASHBOARD_PATH}/${section}${section === "users" && e.user_id ? `/${encodeURIComponent(e.user_id)}` : ""}">${escapeHtml(e.type)}</a>` : escapeHtml(e.type);
    return tableRow([formatTime(e.at), `<span class="mono">${escapeHtml(e.email)}</span>`, what]);
  });
  return `<section class="panel" aria-labelledby="recent"><h2 id="recent">Recent admin actions</h2>
${tableWrap("The newest admin actions", ["When", "Admin", "What"], rows, "No admin actions yet.")}</section>`;
}
