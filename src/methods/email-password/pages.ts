import type { Config } from "../../config/types.js";
import { describeDuration } from "../../words/durations.js";
import { hostedPage, passwordHint } from "../../http/pages/hosted-pages.js";
import { devInboxHint, escapeHtml, field, invalidLinkView, requestLinkView } from "../../http/pages/layout.js";
import { linkRefusalKinds, type SignInPart } from "../../http/pages/sign-in-parts.js";
import type { AccountPagePart } from "../../http/pages/account-parts.js";
import { SIGN_IN_LINK_CODES, SIGN_IN_NOT_ALLOWED_CODE, SIGN_UP_LINK_CODES, SIGN_UP_NOT_ALLOWED_CODE } from "./refusals.js";

/**
 * Its part of the sign-in page: the address and password form (the other rooms' parts use its
 * email field: a code for that address, a passkey for it) and the way to a forgotten password;
 * password-sign-in.js submits it.
 */
export const passwordSignIn: SignInPart = {
  script: "password-sign-in.js",
  markup: {
    form: (c, w) => `<form id="form" method="post" novalidate>
    ${field({ id: "email", label: w.t("page.email"), type: "email", autocomplete: "email", empty: w.t("page.email.empty") }, w)}
    ${field({ id: "password", label: w.t("password.label"), type: "password", autocomplete: "current-password", empty: w.t("password.empty"), hint: passwordHint(c, w) }, w)}
    <button type="submit" id="submit">${w.html("password.signIn")}</button>
  </form>`,
    links: (c: Readonly<Config>, w) => `<p class="aside" id="forgot"><a href="${escapeHtml(c.websiteBasePath)}/reset-password">${w.html("password.forgot")}</a></p>`,
  },
  inPlace: (_c, w) => `<form id="sign-in-form" method="post" novalidate>
    ${field({ id: "email", label: w.t("page.email"), type: "email", autocomplete: "email", empty: w.t("page.email.empty") }, w)}
    ${field({ id: "password", label: w.t("password.label"), type: "password", autocomplete: "current-password", empty: w.t("password.empty") }, w)}
    <button type="submit">${w.html("password.signInAndVerify")}</button>
  </form>`,
  // What every hosted page says for its refusals (refusals.ts): a sign-up for an address that has an
  // account (ERR_CODE_007), the right password on an unverified login whose address another account
  // has (008; password-sign-in.js offers the reset link that proves it), and a sign-in (009–011) or
  // sign-up (013–015) that could not join the signed-in account.
  refusals: [
    { kind: "unverified", codes: [SIGN_IN_NOT_ALLOWED_CODE], words: "Verify your address first: another account uses this address too. We email you a link; opening it shows the address is yours, and you choose your password there." },
    { kind: "taken", codes: [SIGN_UP_NOT_ALLOWED_CODE] },
    ...linkRefusalKinds(SIGN_IN_LINK_CODES, SIGN_UP_LINK_CODES),
  ],
};

/**
 * Its part of "My account": the change-password form (after "How you sign in"), and the password
 * the address change form asks for (#email-password: the proof the account's POST /account/email
 * takes); account-password.js submits the one and reads the other.
 */
export const passwordAccountPage: AccountPagePart = {
  script: "account-password.js",
  markup: {
    "after-logins": (c, w) => `<h2>${w.html("password.change.title")}</h2>
  <p id="password-status" class="status" role="status" aria-live="polite"></p>
  <p id="password-error" class="error" role="alert"></p>
  <form id="password-form" method="post" novalidate>
    ${field({ id: "current-password", label: w.t("password.current"), type: "password", autocomplete: "current-password", empty: w.t("password.current.empty") }, w)}
    ${field({ id: "new-password", label: w.t("password.new"), type: "password", autocomplete: "new-password", empty: w.t("password.new.empty"), hint: passwordHint(c, w) }, w)}
    <button type="submit">${w.html("password.change.button")}</button>
  </form>`,
    "email-proof": (_c, w) => field({ id: "email-password", label: w.t("password.label"), type: "password", autocomplete: "current-password", empty: w.t("password.empty") }, w),
  },
};

/** GET {websiteBasePath}/reset-password[?token=…]: ask for a link, or set the new password. */
export const resetPasswordPage = hostedPage((c, _deps, w) => ({
  title: w.t("password.reset.title"),
  script: "reset-password.js",
  takesToken: true,
  main: `${requestLinkView(c.websiteBasePath, w.t("password.reset.title"), w.t("password.reset.intro"), w)}
<section id="view-sent" hidden aria-labelledby="sent-title">
  <h1 id="sent-title" tabindex="-1">${w.html("checkMail.title")}</h1>
  <p>${w.html("password.reset.sent", { address: `<strong id="sent-address"></strong>`, validFor: escapeHtml(describeDuration(c.passwordResetTokenLifetimeMs, w)) })}</p>
  <p>${w.html("password.reset.spam")}</p>
  ${devInboxHint(c, w)}
  <p id="sent-status" class="status" role="status" aria-live="polite"></p>
  <p id="sent-error" class="error" role="alert"></p>
  <div class="actions">
    <button type="button" id="send-again">${w.html("password.reset.sendAgain")}</button>
    <button type="button" class="secondary" id="other-address">${w.html("password.reset.otherAddress")}</button>
  </div>
  <p class="aside"><a href="${escapeHtml(c.websiteBasePath)}">${w.html("page.backToSignIn")}</a></p>
</section>
<section id="view-new" hidden aria-labelledby="new-title">
  <h1 id="new-title" tabindex="-1">${w.html("password.reset.choose")}</h1>
  <p id="new-error" class="error" role="alert"></p>
  <form id="new-form" method="post" novalidate>
    <!-- For password managers: which account the new password belongs to (filled by reset-password.js when known). -->
    <input type="email" id="username" name="username" autocomplete="username" hidden readonly>
    ${field({ id: "password", label: w.t("password.new"), type: "password", autocomplete: "new-password", empty: w.t("password.new.empty"), hint: passwordHint(c, w) }, w)}
    ${field({ id: "confirm", label: w.t("password.reset.confirm"), type: "password", autocomplete: "new-password", empty: w.t("password.reset.confirm.empty") }, w)}
    <button type="submit">${w.html("password.change.button")}</button>
  </form>
</section>
<section id="view-changed" hidden aria-labelledby="changed-title">
  <h1 id="changed-title" tabindex="-1">${w.html("password.reset.changed.title")}</h1>
  <p>${w.html("password.reset.changed.text")}</p>
  <p><a class="button" href="${escapeHtml(c.websiteBasePath)}">${w.html("password.signIn")}</a></p>
</section>
${invalidLinkView(`${c.websiteBasePath}/reset-password`, w)}`,
}));
