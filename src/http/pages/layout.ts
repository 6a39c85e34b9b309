import type { Config } from "../../config/types.js";
import type { AssetTable } from "./assets.js";

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

export interface PageSpec {
  title: string;
  /** Where the assets are served (the website base path + /_assets, or /_dev/assets). */
  assets: string;
  /** The page's module script (an asset name), if any. */
  script?: string;
  /** Loads token.js first, which takes ?token= out of the address bar before anything else runs. */
  takesToken?: boolean;
  /** data-* attributes on <body>: what the script needs to know (paths, policy), never a secret. */
  data?: Record<string, string>;
  /** Inner HTML of <main>, already escaped. */
  main: string;
  wide?: boolean;
}

/**
 * One HTML document: a skip link, the brand header, a labelled <main>, and nothing inline (the CSP
 * forbids it), so everything the script needs travels in data-* attributes.
 */
export function renderPage(config: Readonly<Config>, p: PageSpec, assets: AssetTable): string {
  const assetUrl = (prefix: string, name: string) => assets.url(prefix, name);
  const data = Object.entries(p.data ?? {}).map(([k, v]) => ` data-${k}="${escapeHtml(v)}"`).join("");
  const logo = config.pagesLogoUrl ? `<img class="logo" src="${escapeHtml(config.pagesLogoUrl)}" alt="" width="32" height="32">` : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${escapeHtml(p.title)} · ${escapeHtml(config.pagesProductName)}</title>
${p.takesToken ? `<script src="${assetUrl(p.assets, "token.js")}"></script>\n` : ""}<link rel="stylesheet" href="${assetUrl(p.assets, "pages.css")}">
${p.script ? `<script type="module" src="${assetUrl(p.assets, p.script)}"></script>` : ""}
</head>
<body${data}>
<a class="skip" href="#main">Skip to content</a>
<header class="brand">${logo}<span class="product">${escapeHtml(config.pagesProductName)}</span></header>
<main id="main" class="${p.wide ? "wide" : "card"}" tabindex="-1">
${p.main}
</main>
</body>
</html>
`;
}

/**
 * A labelled input with its error line (announced through aria-describedby when set). `empty` is
 * what to say when it is left empty (the pages' own words, not the API's "Field is not optional").
 * A password gets a Show/Hide button (api.js): its name says what it does, "Show password".
 */
/**
 * In development, every "Check your email" view links to the development inbox (where the built-in
 * catcher shows the mail); in production, nothing.
 */
export function devInboxHint(config: Readonly<Config>): string {
  return config.mode === "development" ? `<p class="aside dev-inbox-hint">Development: <a href="/_dev/mail" target="_blank">open the development inbox</a> to read the mail.</p>` : "";
}

export function field(o: { id: string; label: string; type: string; autocomplete: string; empty: string; hint?: string }): string {
  const describedBy = [o.hint ? `${o.id}-hint` : "", `${o.id}-error`].filter(Boolean).join(" ");
  const input = `<input id="${o.id}" name="${o.id}" type="${o.type}" autocomplete="${o.autocomplete}" required aria-describedby="${describedBy}" data-empty="${escapeHtml(o.empty)}"${o.type === "email" ? ' spellcheck="false" autocapitalize="none"' : ""}>`;
  return `<div class="field">
  <label for="${o.id}">${escapeHtml(o.label)}</label>
  ${o.hint ? `<p class="hint" id="${o.id}-hint">${escapeHtml(o.hint)}</p>` : ""}
  ${o.type === "password" ? `<div class="password">${input}<button type="button" class="reveal secondary" aria-controls="${o.id}">Show<span class="sr-only"> password</span></button></div>` : input}
  <p class="field-error" id="${o.id}-error"></p>
</div>`;
}

/** Live regions every page has: progress (polite) and failures (alert, read at once). */
export const liveRegions = `<p id="status" class="status" role="status" aria-live="polite"></p>
<p id="form-error" class="error" role="alert"></p>`;

/** The "ask for a link by mail" view (password reset, account recovery): `intro` says what the link does. */
export function requestLinkView(websiteBasePath: string, title: string, intro: string): string {
  return `<section id="view-request" hidden aria-labelledby="request-title">
  <h1 id="request-title" tabindex="-1">${escapeHtml(title)}</h1>
  <p>${escapeHtml(intro)}</p>
  <p id="request-error" class="error" role="alert"></p>
  <form id="request-form" method="post" novalidate>
    ${field({ id: "email", label: "Email", type: "email", autocomplete: "email", empty: "Enter your email address." })}
    <button type="submit">Send the link</button>
  </form>
  <p class="aside"><a href="${escapeHtml(websiteBasePath)}">Back to sign in</a></p>
</section>`;
}

/** The view of a mailed link that no longer works, with the way to ask for a new one at `askAgain`. */
export function invalidLinkView(askAgain: string): string {
  return `<section id="view-invalid" hidden aria-labelledby="invalid-title">
  <h1 id="invalid-title" tabindex="-1">This link no longer works</h1>
  <p>The link has expired, has already been used, or was replaced by a newer one.</p>
  <p><a class="button" href="${escapeHtml(askAgain)}">Ask for a new link</a></p>
</section>`;
}
