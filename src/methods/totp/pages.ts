import { escapeHtml, liveRegions } from "../../http/pages/layout.js";
import { hostedPage } from "../../http/pages/hosted-pages.js";
import type { AccountPagePart } from "../../http/pages/account-parts.js";

/** Its part of "My account": the link to its page, the second step after the first way in. */
export const secondFactorAccountPage: AccountPagePart = {
  links: (c) => [{ place: "second-step", path: `${c.websiteBasePath}/second-factor`, label: "Second factor (authenticator app)" }],
};

const codeField = (id: string, label: string, hint: string, pattern: string, autocomplete: string) => `<div class="field">
  <label for="${id}">${escapeHtml(label)}</label>
  <p class="hint" id="${id}-hint">${escapeHtml(hint)}</p>
  <input id="${id}" name="${id}" type="text" inputmode="${pattern === "numeric" ? "numeric" : "text"}" autocomplete="${autocomplete}" spellcheck="false" autocapitalize="none" required aria-describedby="${id}-hint ${id}-error" data-empty="Enter the code.">
  <p class="field-error" id="${id}-error"></p>
</div>`;

/** The recovery codes, shown once (after the first device, or after asking for a new set). */
const codesView = `<section id="view-codes" hidden aria-labelledby="codes-title">
  <h1 id="codes-title" tabindex="-1">Save your recovery codes</h1>
  <p>If you lose your phone, each of these codes signs you in once in place of a code from the app. Keep them somewhere safe: they are shown only now.</p>
  <ol id="codes" class="codes"></ol>
  <div class="actions">
    <button type="button" class="secondary" id="codes-copy">Copy</button>
    <a class="button secondary" id="codes-download" href="#" download="recovery-codes.txt">Download</a>
  </div>
  <p id="codes-status" class="status" role="status" aria-live="polite"></p>
  <p><a class="button" id="codes-continue" href="/">I saved them, continue</a></p>
</section>`;

/**
 * GET {websiteBasePath}/mfa: the second factor after sign-in. Set-up (QR code, secret, a code to
 * confirm, then the recovery codes) when the user has no device yet, else a code from the app, or
 * a recovery code instead. `?setup=true` adds a device to a complete session (from the manage page).
 */
export const mfaPage = hostedPage((c, _deps, w) => ({
  title: "Second factor",
  script: "mfa.js",
  main: `<section id="view-loading" aria-labelledby="loading-title">
  <h1 id="loading-title" tabindex="-1">Second factor</h1>
  ${liveRegions}
</section>
<section id="view-setup" hidden aria-labelledby="setup-title">
  <h1 id="setup-title" tabindex="-1">Set up your authenticator app</h1>
  <p>Scan this QR code with an authenticator app (such as Google Authenticator, 1Password or Aegis), then enter the 6-digit code it shows.</p>
  <p class="qr"><img id="qr" alt="QR code for your authenticator app" width="200" height="200"></p>
  <p>Cannot scan it? Enter this key in the app: <code id="secret"></code></p>
  <p id="setup-error" class="error" role="alert"></p>
  <form id="setup-form" method="post" novalidate>
    ${codeField("setup-code", "Code from the app", "6 digits; a new one every 30 seconds.", "numeric", "one-time-code")}
    <button type="submit">Turn on</button>
  </form>
</section>
<section id="view-code" hidden aria-labelledby="code-title">
  <h1 id="code-title" tabindex="-1">Enter your code</h1>
  <p>Open your authenticator app and enter the 6-digit code it shows for this account.</p>
  <p id="code-form-error" class="error" role="alert"></p>
  <form id="code-form" method="post" novalidate>
    ${codeField("code", "Code", "6 digits.", "numeric", "one-time-code")}
    <button type="submit">Continue</button>
  </form>
  <p class="aside"><button type="button" class="link" id="use-recovery">Lost your phone? Use a recovery code</button></p>
</section>
<section id="view-recovery" hidden aria-labelledby="recovery-title">
  <h1 id="recovery-title" tabindex="-1">Use a recovery code</h1>
  <p>Enter one of the recovery codes you saved when you turned on the second factor. Each works once.</p>
  <p id="recovery-error" class="error" role="alert"></p>
  <form id="recovery-form" method="post" novalidate>
    ${codeField("recovery-code", "Recovery code", "Such as abcd-efgh-…; dashes and capitals do not matter.", "text", "off")}
    <button type="submit">Continue</button>
  </form>
  <p class="aside"><button type="button" class="link" id="use-app">Use the app instead</button></p>
</section>
${codesView}
<p class="aside"><a href="${escapeHtml(c.websiteBasePath)}/sign-out">Sign out</a></p>`,
}));

/** GET {websiteBasePath}/second-factor: a signed-in user manages their second factor (devices, recovery codes). */
export const secondFactorPage = hostedPage((c, _deps, w) => ({
  title: "Your second factor",
  script: "second-factor.js",
  main: `<section id="view-manage" aria-labelledby="manage-title">
  <h1 id="manage-title" tabindex="-1">Your second factor</h1>
  ${liveRegions}
  <p id="state"></p>
  <ul id="devices" class="devices"></ul>
  <div class="actions">
    <a class="button" id="add" href="${escapeHtml(c.websiteBasePath)}/mfa?setup=true">Add an authenticator app</a>
    <button type="button" class="secondary" id="new-codes" hidden>New recovery codes</button>
  </div>
</section>
${codesView}`,
}));
