import type { Config } from "../config/types.js";
import { dashboardAssetUrl } from "./assets.js";
import { DASHBOARD_PATH, escapeHtml } from "./kit.js";

/**
 * The one HTML document of every dashboard page: the stylesheet, skip link, the header given, and a
 * labelled <main>. Nothing inline (CSP). `header` and `main` are escaped HTML.
 */
export function renderDashboardDocument(config: Readonly<Config>, p: { title: string; header: string; main: string; narrow?: boolean }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${escapeHtml(p.title)} · ${escapeHtml(config.pagesProductName)} admin</title>
<link rel="stylesheet" href="${dashboardAssetUrl("dashboard.css")}">
</head>
<body class="dashboard">
<a class="skip" href="#main">Skip to content</a>
${p.header}
<main id="main"${p.narrow ? ' class="narrow"' : ""} tabindex="-1">
${p.main}
</main>
</body>
</html>
`;
}

/**
 * A dashboard page outside a session (sign-in, "session ended", errors before sign-in): the same
 * stylesheet and skip link as renderDashboardPage, no navigation. `main` is escaped HTML.
 */
export function renderPlainPage(config: Readonly<Config>, p: { title: string; main: string }): string {
  const header = `<header class="bar"><span class="product">${escapeHtml(config.pagesProductName)} admin</span></header>`;
  return renderDashboardDocument(config, { title: p.title, header, narrow: true, main: `<h1>${escapeHtml(p.title)}</h1>\n${p.main}` });
}

/** An error page: what went wrong, and a way on (sign in, or back to the overview). */
export function renderErrorPage(config: Readonly<Config>, o: { title: string; message: string; signedIn: boolean }): string {
  const on = o.signedIn ? `<p><a href="${DASHBOARD_PATH}">Back to the overview</a></p>` : `<p><a href="${DASHBOARD_PATH}/sign-in">Sign in to the dashboard</a></p>`;
  return renderPlainPage(config, { title: o.title, main: `<p class="error" role="alert">${escapeHtml(o.message)}</p>\n${on}` });
}
