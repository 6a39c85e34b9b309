import type { DashboardSectionKit, DashboardSectionPart } from "../http/dashboard-sections.js";
import { DASHBOARD_PATH, escapeHtml, formatTime, type DashboardRoute } from "./kit.js";
import { pageOrRefusal, tableRow, tableWrap } from "./ops/parts.js";

/** The dashboard's markup, handed to the rooms' pages. */
const kit: DashboardSectionKit = {
  escape: escapeHtml,
  href: (path) => `${DASHBOARD_PATH}/${path}`,
  table: tableWrap,
  row: tableRow,
  time: formatTime,
};

/**
 * The rooms' sections (Room.dashboardSection) as dashboard routes: each page behind the admin
 * session like the dashboard's own, laid out in its section, a refusal of the core shown as a page.
 */
export function roomSectionRoutes(sections: readonly DashboardSectionPart[]): DashboardRoute[] {
  return sections.flatMap((s) => {
    const section = `${DASHBOARD_PATH}/${s.path}`;
    return s.pages.map((page): DashboardRoute => ({
      method: "GET",
      path: `${section}${page.path}`,
      handler: (r) => pageOrRefusal(r, { title: page.title, section }, () => page.render(r.ctx, r.params, kit)),
    }));
  });
}
