import { renderDashboardDocument } from "./plain-page.js";
import { DASHBOARD_PATH, escapeHtml, navigation, type DashboardRequest, type DashboardResult } from "./kit.js";

export interface DashboardPage {
  title: string;
  /** Inner HTML of <main> after its <h1> (already escaped). */
  main: string;
  /** The navigation section this page belongs to (its path in the navigation). */
  section: string;
  status?: number;
}

/**
 * A signed-in dashboard page: skip link, header with the navigation and the admin's sign-out, the
 * previous action's message (a live region), then <main> with the page's <h1>. Nothing inline (CSP).
 */
export function renderDashboardPage(r: DashboardRequest, p: DashboardPage): DashboardResult {
  const nav = navigation(r.deps.tables.dashboardSections).map((s) => `<li><a href="${escapeHtml(s.path)}"${s.path === p.section ? ' aria-current="page"' : ""}>${escapeHtml(s.label)}</a></li>`).join("");
  const flash = r.flash ? `<p class="flash ${r.flash.kind}" role="${r.flash.kind === "error" ? "alert" : "status"}">${escapeHtml(r.flash.text)}</p>` : "";
  const product = escapeHtml(r.ctx.config.pagesProductName);
  const header = `<header class="bar">
  <span class="product">${product} admin</span>
  <nav aria-label="Dashboard"><ul>${nav}</ul></nav>
  <form method="post" action="${DASHBOARD_PATH}/sign-out" class="who"><input type="hidden" name="csrf" value="${escapeHtml(r.csrf)}"><a href="${DASHBOARD_PATH}/account"${p.section === `${DASHBOARD_PATH}/account` ? ' aria-current="page"' : ""}>${escapeHtml(r.admin.email)}</a> <button type="submit" class="secondary">Sign out</button></form>
</header>`;
  return { status: p.status, html: renderDashboardDocument(r.ctx.config, { title: p.title, header, main: `${flash}<h1>${escapeHtml(p.title)}</h1>\n${p.main}` }) };
}
