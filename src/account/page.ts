import type { Config } from "../config/types.js";
import { hostedPage } from "../http/pages/hosted-pages.js";
import { escapeHtml, field, liveRegions } from "../http/pages/layout.js";
import type { HttpDeps } from "../http/deps.js";
import { accountLinkPlaces, accountLinksAt, accountScripts, accountSlot, type AccountLink, type AccountPagePart } from "../http/pages/account-parts.js";
import type { LoginKind } from "../core/logins.js";
import type { Words } from "../words/words.js";

const b = (c: Readonly<Config>) => escapeHtml(c.websiteBasePath);

/** A password field's Show/Hide button (api.js turns it): its name says what it does, "Show password". */
const reveal = (id: string, w: Words) => `<button type="button" class="reveal secondary" aria-controls="${id}">${w.html("js.reveal.show")}<span class="sr-only"> ${w.html("page.reveal.what")}</span></button>`;

/** The rooms' modules account.js mounts (AccountPagePart.script), when there are any. */
function partsData(parts: readonly AccountPagePart[]): Record<string, string> {
  const scripts = accountScripts(parts);
  return scripts ? { "account-parts": scripts } : {};
}

/** A room's link (AccountPagePart.links); with `count`, account.js adds the number beside it. */
const roomLink = (l: AccountLink) => `<li><a href="${escapeHtml(l.path)}"${l.count ? ` data-count-path="${escapeHtml(l.count.path)}" data-count-field="${escapeHtml(l.count.field)}"` : ""}>${escapeHtml(l.label)}</a></li>`;

/**
 * Links to the other account pages: the rooms' own (AccountPagePart.links), one line per place in
 * one clearly marked list, then "Sign out".
 */
const otherPages = (c: Readonly<Config>, parts: readonly AccountPagePart[], w: Words) => `<nav aria-label="${w.html("account.moreLinks")}" id="account-links">
  <ul>
    <!-- account-links: one <li> per account page -->
    ${accountLinkPlaces.map((place) => accountLinksAt(parts, place, c, w).map(roomLink).join("")).join("\n    ")}
    <li><a href="${b(c)}/sign-out">${w.html("signOut.button")}</a></li>
  </ul>
</nav>`;

/**
 * Each kind of login's name in "How you sign in" (LoginKind.accountLabel): a word's id in the page's
 * words, or text as it is; a {field} (the login's own: {provider}, {passkeys}) stays for account.js.
 */
function loginLabels(logins: readonly LoginKind[], w: Words): Record<string, string> {
  const fields = { provider: "{provider}", passkeys: "{passkeys}" };
  return Object.fromEntries(logins.flatMap((k) => (k.accountLabel ? [[k.recipeId, w.has(k.accountLabel) ? w.t(k.accountLabel, fields) : k.accountLabel]] : [])));
}

/**
 * GET {websiteBasePath}/account: "My account" (src/account/). Signed in: my sessions, my logins,
 * change email, delete my account, and the rooms' parts (Room.accountPage: their links, sections
 * and fields in the page's slots, mounted by account.js from their modules). With a mailed token
 * (?token=, taken out of the address bar by token.js): confirms an email change, or with
 * ?action=cancel-deletion keeps an account whose deletion is scheduled. Every change is a POST
 * from account.js or a room's module.
 */
export const accountPage = (deps: HttpDeps) => hostedPage((c, _deps, w) => ({
  title: w.t("account.title"),
  script: "account.js",
  takesToken: true,
  wide: true,
  data: {
    // How each kind of login is named in "How you sign in" (LoginKind.accountLabel).
    "login-labels": JSON.stringify(loginLabels(deps.ctx.logins, w)),
    ...partsData(deps.tables.accountPage),
  },
  main: `<section id="view-loading" aria-labelledby="loading-title">
  <h1 id="loading-title" tabindex="-1">${w.html("account.title")}</h1>
  ${liveRegions}
</section>
<section id="view-signed-out" hidden aria-labelledby="signed-out-title">
  <h1 id="signed-out-title" tabindex="-1">${w.html("account.signIn")}</h1>
  <p><a class="button" href="${b(c)}">${w.html("signIn.title")}</a></p>
</section>
<section id="view-account" hidden aria-labelledby="account-title">
  <h1 id="account-title" tabindex="-1">${w.html("account.title")}</h1>
  <p id="account-who">${w.html("account.who", { email: `<strong id="account-email"></strong>` })}</p>
  ${otherPages(c, deps.tables.accountPage, w)}
  <h2>${w.html("account.sessions")}</h2>
  <p id="sessions-status" class="status" role="status" aria-live="polite"></p>
  <ul id="sessions" class="sessions"></ul>
  <button type="button" class="secondary" id="revoke-others">${w.html("account.revokeOthers")}</button>

  <h2>${w.html("account.logins")}</h2>
  <p id="logins-status" class="status" role="status" aria-live="polite"></p>
  <p id="logins-error" class="error" role="alert"></p>
  <ul id="logins" class="sessions"></ul>
  <div class="field">
    <label for="logins-password">${w.html("account.loginsPassword")}</label>
    <div class="password"><input id="logins-password" name="logins-password" type="password" autocomplete="current-password">${reveal("logins-password", w)}</div>
  </div>

  ${accountSlot(deps.tables.accountPage, "after-logins", c, "\n\n  ", w)}

  <h2>${w.html("account.email.title")}</h2>
  <p id="email-status" class="status" role="status" aria-live="polite"></p>
  <p id="email-error" class="error" role="alert"></p>
  <form id="email-form" method="post" novalidate>
    ${field({ id: "new-email", label: w.t("account.email.new"), type: "email", autocomplete: "email", empty: w.t("account.email.empty") }, w)}
    ${accountSlot(deps.tables.accountPage, "email-proof", c, "\n    ", w)}
    <button type="submit">${w.html("account.email.send")}</button>
  </form>

  <h2>${w.html("account.locale.title")}</h2>
  <p id="locale-status" class="status" role="status" aria-live="polite"></p>
  <p id="locale-error" class="error" role="alert"></p>
  <form id="locale-form" method="post" novalidate>
    <div class="field">
      <label for="mail-locale">${w.html("account.locale.label")}</label>
      <select id="mail-locale" name="mail-locale">${deps.ctx.words.offered.map((l) => `<option value="${l}" lang="${l}">${escapeHtml(new Intl.DisplayNames([l], { type: "language" }).of(l) ?? l)}</option>`).join("")}</select>
    </div>
    <button type="submit">${w.html("account.locale.save")}</button>
  </form>

  <h2>${w.html("account.delete.title")}</h2>
  <p>${w.html("account.delete.text")}</p>
  <p id="delete-error" class="error" role="alert"></p>
  <form id="delete-form" method="post" novalidate>
    <div class="field">
      <label for="delete-password">${w.html("account.delete.password")}</label>
      <div class="password"><input id="delete-password" name="delete-password" type="password" autocomplete="current-password">${reveal("delete-password", w)}</div>
    </div>
    <button type="submit" class="danger" id="delete">${w.html("account.delete.button")}</button>
  </form>
</section>
<section id="view-deleted" hidden aria-labelledby="deleted-title">
  <h1 id="deleted-title" tabindex="-1">${w.html("account.mail.deletion.subject")}</h1>
  <p>${w.html("account.deleted.text", { date: `<strong id="delete-at"></strong>` })}</p>
</section>
<section id="view-token-done" hidden aria-labelledby="token-done-title">
  <h1 id="token-done-title" tabindex="-1">${w.html("account.done")}</h1>
  <p id="token-done-text"></p>
  <p><a class="button" href="${b(c)}/account">${w.html("account.title")}</a></p>
</section>
<section id="view-token-invalid" hidden aria-labelledby="token-invalid-title">
  <h1 id="token-invalid-title" tabindex="-1">${w.html("page.invalid.title")}</h1>
  <p id="token-invalid-text">${w.html("page.invalid.text")}</p>
</section>`,
}))(deps);
