import { escapeHtml, liveRegions } from "../../http/pages/layout.js";
import { hostedPage } from "../../http/pages/hosted-pages.js";
import type { AccountPagePart } from "../../http/pages/account-parts.js";
import type { Words } from "../../words/words.js";

/** Its part of "My account": the link to its page, the second step after the first way in. */
export const secondFactorAccountPage: AccountPagePart = {
  links: (c, w) => [{ place: "second-step", path: `${c.websiteBasePath}/second-factor`, label: w.t("totp.link") }],
};

const codeField = (w: Words, id: string, label: string, hint: string, pattern: string, autocomplete: string) => `<div class="field">
  <label for="${id}">${w.html(label)}</label>
  <p class="hint" id="${id}-hint">${w.html(hint)}</p>
  <input id="${id}" name="${id}" type="text" inputmode="${pattern === "numeric" ? "numeric" : "text"}" autocomplete="${autocomplete}" spellcheck="false" autocapitalize="none" required aria-describedby="${id}-hint ${id}-error" data-empty="${w.html("totp.code.empty")}">
  <p class="field-error" id="${id}-error"></p>
</div>`;

/** The recovery codes, shown once (after the first device, or after asking for a new set). */
const codesView = (w: Words) => `<section id="view-codes" hidden aria-labelledby="codes-title">
  <h1 id="codes-title" tabindex="-1">${w.html("totp.codes.title")}</h1>
  <p>${w.html("totp.codes.text")}</p>
  <ol id="codes" class="codes"></ol>
  <div class="actions">
    <button type="button" class="secondary" id="codes-copy">${w.html("totp.codes.copy")}</button>
    <a class="button secondary" id="codes-download" href="#" download="recovery-codes.txt">${w.html("totp.codes.download")}</a>
  </div>
  <p id="codes-status" class="status" role="status" aria-live="polite"></p>
  <p><a class="button" id="codes-continue" href="/">${w.html("totp.codes.continue")}</a></p>
</section>`;

/**
 * GET {websiteBasePath}/mfa: the second factor after sign-in. Set-up (QR code, secret, a code to
 * confirm, then the recovery codes) when the user has no device yet, else a code from the app, or
 * a recovery code instead. `?setup=true` adds a device to a complete session (from the manage page).
 */
export const mfaPage = hostedPage((c, _deps, w) => ({
  title: w.t("totp.mfa.title"),
  script: "mfa.js",
  main: `<section id="view-loading" aria-labelledby="loading-title">
  <h1 id="loading-title" tabindex="-1">${w.html("totp.mfa.title")}</h1>
  ${liveRegions}
</section>
<section id="view-setup" hidden aria-labelledby="setup-title">
  <h1 id="setup-title" tabindex="-1">${w.html("totp.setup.title")}</h1>
  <p>${w.html("totp.setup.text")}</p>
  <p class="qr"><img id="qr" alt="${w.html("totp.setup.qr")}" width="200" height="200"></p>
  <p>${w.html("totp.setup.key", { key: `<code id="secret" dir="ltr"></code>` })}</p>
  <p id="setup-error" class="error" role="alert"></p>
  <form id="setup-form" method="post" novalidate>
    ${codeField(w, "setup-code", "totp.setup.label", "totp.setup.hint", "numeric", "one-time-code")}
    <button type="submit">${w.html("totp.setup.button")}</button>
  </form>
</section>
<section id="view-code" hidden aria-labelledby="code-title">
  <h1 id="code-title" tabindex="-1">${w.html("totp.code.title")}</h1>
  <p>${w.html("totp.code.text")}</p>
  <p id="code-form-error" class="error" role="alert"></p>
  <form id="code-form" method="post" novalidate>
    ${codeField(w, "code", "totp.code.label", "totp.code.hint", "numeric", "one-time-code")}
    <button type="submit">${w.html("totp.continue")}</button>
  </form>
  <p class="aside"><button type="button" class="link" id="use-recovery">${w.html("totp.code.lost")}</button></p>
</section>
<section id="view-recovery" hidden aria-labelledby="recovery-title">
  <h1 id="recovery-title" tabindex="-1">${w.html("totp.recovery.title")}</h1>
  <p>${w.html("totp.recovery.text")}</p>
  <p id="recovery-error" class="error" role="alert"></p>
  <form id="recovery-form" method="post" novalidate>
    ${codeField(w, "recovery-code", "totp.recovery.label", "totp.recovery.hint", "text", "off")}
    <button type="submit">${w.html("totp.continue")}</button>
  </form>
  <p class="aside"><button type="button" class="link" id="use-app">${w.html("totp.recovery.useApp")}</button></p>
</section>
${codesView(w)}
<p class="aside"><a href="${escapeHtml(c.websiteBasePath)}/sign-out">${w.html("signOut.button")}</a></p>`,
}));

/** GET {websiteBasePath}/second-factor: a signed-in user manages their second factor (devices, recovery codes). */
export const secondFactorPage = hostedPage((c, _deps, w) => ({
  title: w.t("totp.manage.title"),
  script: "second-factor.js",
  main: `<section id="view-manage" aria-labelledby="manage-title">
  <h1 id="manage-title" tabindex="-1">${w.html("totp.manage.title")}</h1>
  ${liveRegions}
  <p id="state"></p>
  <ul id="devices" class="devices"></ul>
  <div class="actions">
    <a class="button" id="add" href="${escapeHtml(c.websiteBasePath)}/mfa?setup=true">${w.html("totp.manage.add")}</a>
    <button type="button" class="secondary" id="new-codes" hidden>${w.html("totp.manage.newCodes")}</button>
  </div>
</section>
${codesView(w)}`,
}));
