import type { DashboardSectionKit, DashboardSectionPart } from "../http/dashboard-sections.js";
import { actionForm, DASHBOARD_PATH, done, escapeHtml, formatTime, type DashboardRequest, type DashboardRoute } from "./kit.js";
import { actionOrRefusal, badge, pageOrRefusal, selectField, tableRow, tableWrap } from "./ops/parts.js";
import { renderDashboardPage } from "./layout.js";

const href = (path: string) => `${DASHBOARD_PATH}/${path}`;

/** The dashboard's markup, handed to the rooms' pages; the forms carry this request's CSRF token. */
function kitFor(r: Pick<DashboardRequest, "csrf">): DashboardSectionKit {
  return {
    escape: escapeHtml,
    href,
    table: tableWrap,
    row: tableRow,
    time: formatTime,
    button: (path, label, whom, o = {}) => actionForm(r, { action: href(path), label, danger: o.danger })
      .replace("</button>", `<span class="sr-only"> ${escapeHtml(whom)}</span></button>`),
    form: (path, label, fields) => actionForm(r, { action: href(path), label, fields, className: "stack" }),
    badge,
    select: selectField,
  };
}

/**
 * The rooms' sections (Room.dashboardSection) as dashboard routes: each page behind the admin
 * session like the dashboard's own, laid out in its section, a refusal of the core shown as a page;
 * each action behind the CSRF check too, answered with a redirect to the section's page and its
 * message (a refusal of the core as an error message, nothing changed).
 */
export function roomSectionRoutes(sections: readonly DashboardSectionPart[]): DashboardRoute[] {
  return sections.flatMap((s) => {
    const section = href(s.path);
    const pages = s.pages.map((page): DashboardRoute => ({
      method: "GET",
      path: `${section}${page.path}`,
      handler: (r) => pageOrRefusal(r, { title: page.title, section }, () => page.render(r.ctx, r.params, kitFor(r), r.query)),
    }));
    const actions = (s.actions ?? []).map((action): DashboardRoute => ({
      method: "POST",
      path: `${section}${action.path}`,
      handler: (r) => actionOrRefusal(section, async () => {
        const said = await action.run(r.ctx, r.params, { form: r.form, source: r.source });
        // A secret shown once is answered here, never through the message's cookie.
        if (said.page) return renderDashboardPage(r, { title: said.page.title, section, main: `${said.page.main}<p><a href="${escapeHtml(section)}">Back to ${escapeHtml(s.label)}</a></p>` });
        return done(section, said.text, said.kind);
      }),
    }));
    return [...pages, ...actions];
  });
}
