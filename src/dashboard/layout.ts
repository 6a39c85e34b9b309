import { dashboardAssetUrl } from "./assets.js";
import { DASHBOARD_PATH, dashboardSections, escapeHtml, type DashboardRequest, type DashboardResult } from "./kit.js";

export interface DashboardPage {
  title: string;
  /** Inner HTML of <main> after its <h1> (already escaped). */
  main: string;
  /** The navigation section this page belongs to (its path in dashboardSections). */
  section: string;
  status?: number;
}

/**
 * A signed-in dashboard page: skip link, header with the navigation and the admin's sign-out, the
 * previous action's message (a live region), then <main> with the page's <h1>. Nothing inline (CSP).
 */
export function renderDashboardPage(r: DashboardRequest, p: DashboardPage): DashboardResult {
  const nav = dashboardSections.map((s) => `<li><a href="${escapeHtml(s.path)}"${s.path === p.section ? ' aria-current="page"' : ""}>${escapeHtml(s.label)}</a></li>`).join("");
  const flash = r.flash ? `<p class="flash ${r.flash.kind}" role="${r.flash.kind === "error" ? "alert" : "status"}">${escapeHtml(r.flash.text)}</p>` : "";
  const product = escapeHtml(r.ctx.config.pagesProductName);
  return {
    status: p.status,
    html: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${escapeHtml(p.title)} · ${product} admin</title>
<link rel="stylesheet" href="${dashboardAssetUrl("dashboard.css")}">
</head>
<body class="dashboard">
<a class="skip" href="#main">Skip to content</a>
<header class="bar">
  <span class="product">${product} admin</span>
  <nav aria-label="Dashboard"><ul>${nav}</ul></nav>
  <form method="post" action="${DASHBOARD_PATH}/sign-out" class="who"><input type="hidden" name="csrf" value="${escapeHtml(r.csrf)}"><a href="${DASHBOARD_PATH}/account"${p.section === `${DASHBOARD_PATH}/account` ? ' aria-current="page"' : ""}>${escapeHtml(r.admin.email)}</a> <button type="submit" class="secondary">Sign out</button></form>
</header>
<main id="main" tabindex="-1">
${flash}<h1>${escapeHtml(p.title)}</h1>
${p.main}
</main>
</body>
</html>
`,
  };
}
