import type { Config } from "../../config/types.js";
import type { Words } from "../../words/words.js";
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
export function renderPage(config: Readonly<Config>, p: PageSpec, assets: AssetTable, w: Words): string {
  const assetUrl = (prefix: string, name: string) => assets.url(prefix, name);
  const data = Object.entries(p.data ?? {}).map(([k, v]) => ` data-${k}="${escapeHtml(v)}"`).join("");
  const logo = config.pagesLogoUrl ? `<img class="logo" src="${escapeHtml(config.pagesLogoUrl)}" alt="" width="32" height="32">` : "";
  return `<!doctype html>
<html lang="${w.lang}" dir="${w.dir}">
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
<script type="application/json" id="page-words">${scriptWords(w)}</script>
<a class="skip" href="#main">${w.html("page.skip")}</a>
<header class="brand">${logo}<span class="product">${escapeHtml(config.pagesProductName)}</span></header>
<main id="main" class="${p.wide ? "wide" : "card"}" tabindex="-1">
${p.main}
</main>
</body>
</html>
`;
}

/**
 * What the page scripts say, in the page's locale: the words whose ids have a `js` segment, as
 * their ICU source (api.js formats them), in a JSON block no browser runs (the CSP allows no
 * inline script, and needs none for data). `<` is escaped so no word can close the block.
 */
function scriptWords(w: Words): string {
  return JSON.stringify({ lang: w.lang, words: w.messages(["js."]) }).replace(/</g, "\\u003c");
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
export function devInboxHint(config: Readonly<Config>, w: Words): string {
  return config.mode === "development" ? `<p class="aside dev-inbox-hint">${w.html("page.devInbox", { link: `<a href="/_dev/mail" target="_blank">${w.html("page.devInbox.link")}</a>` })}</p>` : "";
}

export function field(o: { id: string; label: string; type: string; autocomplete: string; empty: string; hint?: string }, w: Words): string {
  const describedBy = [o.hint ? `${o.id}-hint` : "", `${o.id}-error`].filter(Boolean).join(" ");
  const input = `<input id="${o.id}" name="${o.id}" type="${o.type}" autocomplete="${o.autocomplete}" required aria-describedby="${describedBy}" data-empty="${escapeHtml(o.empty)}"${o.type === "email" ? ' spellcheck="false" autocapitalize="none"' : ""}>`;
  return `<div class="field">
  <label for="${o.id}">${escapeHtml(o.label)}</label>
  ${o.hint ? `<p class="hint" id="${o.id}-hint">${escapeHtml(o.hint)}</p>` : ""}
  ${o.type === "password" ? `<div class="password">${input}<button type="button" class="reveal secondary" aria-controls="${o.id}">${w.html("js.reveal.show")}<span class="sr-only"> ${w.html("page.reveal.what")}</span></button></div>` : input}
  <p class="field-error" id="${o.id}-error"></p>
</div>`;
}

/** Live regions every page has: progress (polite) and failures (alert, read at once). */
export const liveRegions = `<p id="status" class="status" role="status" aria-live="polite"></p>
<p id="form-error" class="error" role="alert"></p>`;

/** The "ask for a link by mail" view (password reset, account recovery): `intro` says what the link does. */
export function requestLinkView(websiteBasePath: string, title: string, intro: string, w: Words): string {
  return `<section id="view-request" hidden aria-labelledby="request-title">
  <h1 id="request-title" tabindex="-1">${escapeHtml(title)}</h1>
  <p>${escapeHtml(intro)}</p>
  <p id="request-error" class="error" role="alert"></p>
  <form id="request-form" method="post" novalidate>
    ${field({ id: "email", label: w.t("page.email"), type: "email", autocomplete: "email", empty: w.t("page.email.empty") }, w)}
    <button type="submit">${w.html("page.sendLink")}</button>
  </form>
  <p class="aside"><a href="${escapeHtml(websiteBasePath)}">${w.html("page.backToSignIn")}</a></p>
</section>`;
}

/** The view of a mailed link that no longer works, with the way to ask for a new one at `askAgain`. */
export function invalidLinkView(askAgain: string, w: Words): string {
  return `<section id="view-invalid" hidden aria-labelledby="invalid-title">
  <h1 id="invalid-title" tabindex="-1">${w.html("page.invalid.title")}</h1>
  <p>${w.html("page.invalid.text")}</p>
  <p><a class="button" href="${escapeHtml(askAgain)}">${w.html("page.invalid.askAgain")}</a></p>
</section>`;
}
