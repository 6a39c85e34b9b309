import type { Config } from "../config/types.js";
import { hostedPage } from "../http/pages/hosted-pages.js";
import { escapeHtml, field, liveRegions } from "../http/pages/layout.js";
import type { HttpDeps } from "../http/deps.js";
import { accountLinkPlaces, accountLinksAt, accountScripts, accountSlot, type AccountLink, type AccountPagePart } from "../http/pages/account-parts.js";

const b = (c: Readonly<Config>) => escapeHtml(c.websiteBasePath);

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
const otherPages = (c: Readonly<Config>, parts: readonly AccountPagePart[]) => `<nav aria-label="More account pages" id="account-links">
  <ul>
    <!-- account-links: one <li> per account page -->
    ${accountLinkPlaces.map((place) => accountLinksAt(parts, place, c).map(roomLink).join("")).join("\n    ")}
    <li><a href="${b(c)}/sign-out">Sign out</a></li>
  </ul>
</nav>`;

/**
 * GET {websiteBasePath}/account: "My account" (src/account/). Signed in: my sessions, my logins,
 * change email, delete my account, and the rooms' parts (Room.accountPage: their links, sections
 * and fields in the page's slots, mounted by account.js from their modules). With a mailed token
 * (?token=, taken out of the address bar by token.js): confirms an email change, or with
 * ?action=cancel-deletion keeps an account whose deletion is scheduled. Every change is a POST
 * from account.js or a room's module.
 */
export const accountPage = (deps: HttpDeps) => hostedPage((c, _deps, w) => ({
  title: "My account",
  script: "account.js",
  takesToken: true,
  wide: true,
  data: {
    // How each kind of login is named in "How you sign in" (LoginKind.accountLabel).
    "login-labels": JSON.stringify(Object.fromEntries(deps.ctx.logins.flatMap((k) => (k.accountLabel ? [[k.recipeId, k.accountLabel]] : [])))),
    ...partsData(deps.tables.accountPage),
  },
  main: `<section id="view-loading" aria-labelledby="loading-title">
  <h1 id="loading-title" tabindex="-1">My account</h1>
  ${liveRegions}
</section>
<section id="view-signed-out" hidden aria-labelledby="signed-out-title">
  <h1 id="signed-out-title" tabindex="-1">Sign in to manage your account</h1>
  <p><a class="button" href="${b(c)}">Sign in</a></p>
</section>
<section id="view-account" hidden aria-labelledby="account-title">
  <h1 id="account-title" tabindex="-1">My account</h1>
  <p id="account-who">Signed in as <strong id="account-email"></strong></p>
  ${otherPages(c, deps.tables.accountPage)}
  <h2>Where you are signed in</h2>
  <p id="sessions-status" class="status" role="status" aria-live="polite"></p>
  <ul id="sessions" class="sessions"></ul>
  <button type="button" class="secondary" id="revoke-others">Sign out everywhere else</button>

  <h2>How you sign in</h2>
  <p id="logins-status" class="status" role="status" aria-live="polite"></p>
  <p id="logins-error" class="error" role="alert"></p>
  <ul id="logins" class="sessions"></ul>
  <div class="field">
    <label for="logins-password">Password, to remove one (if your account has one)</label>
    <div class="password"><input id="logins-password" name="logins-password" type="password" autocomplete="current-password"><button type="button" class="reveal secondary" aria-controls="logins-password">Show<span class="sr-only"> password</span></button></div>
  </div>

  ${accountSlot(deps.tables.accountPage, "after-logins", c, "\n\n  ", w)}

  <h2>Change your email address</h2>
  <p id="email-status" class="status" role="status" aria-live="polite"></p>
  <p id="email-error" class="error" role="alert"></p>
  <form id="email-form" method="post" novalidate>
    ${field({ id: "new-email", label: "New email address", type: "email", autocomplete: "email", empty: "Enter the new address." }, w)}
    ${accountSlot(deps.tables.accountPage, "email-proof", c, "\n    ", w)}
    <button type="submit">Send a confirmation link</button>
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

  <h2>Delete your account</h2>
  <p>You are signed out everywhere at once; the account is deleted for good after a grace period, and the mail we send has a link to keep it.</p>
  <p id="delete-error" class="error" role="alert"></p>
  <form id="delete-form" method="post" novalidate>
    <div class="field">
      <label for="delete-password">Password (if your account has one)</label>
      <div class="password"><input id="delete-password" name="delete-password" type="password" autocomplete="current-password"><button type="button" class="reveal secondary" aria-controls="delete-password">Show<span class="sr-only"> password</span></button></div>
    </div>
    <button type="submit" class="danger" id="delete">Delete my account</button>
  </form>
</section>
<section id="view-deleted" hidden aria-labelledby="deleted-title">
  <h1 id="deleted-title" tabindex="-1">Your account will be deleted</h1>
  <p>You were signed out everywhere. It will be deleted for good on <strong id="delete-at"></strong>; the mail we sent you has a link to keep it.</p>
</section>
<section id="view-token-done" hidden aria-labelledby="token-done-title">
  <h1 id="token-done-title" tabindex="-1">Done</h1>
  <p id="token-done-text"></p>
  <p><a class="button" href="${b(c)}/account">My account</a></p>
</section>
<section id="view-token-invalid" hidden aria-labelledby="token-invalid-title">
  <h1 id="token-invalid-title" tabindex="-1">This link no longer works</h1>
  <p id="token-invalid-text">The link has expired, has already been used, or was replaced by a newer one.</p>
</section>`,
}))(deps);
