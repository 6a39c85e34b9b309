import type { Config } from "../../config/types.js";
import { describeDuration } from "../../words/durations.js";
import { hostedPage } from "../../http/pages/hosted-pages.js";
import { devInboxHint, escapeHtml, invalidLinkView, liveRegions, requestLinkView } from "../../http/pages/layout.js";
import { linkRefusalKinds, type SignInPart } from "../../http/pages/sign-in-parts.js";
import type { AccountPagePart } from "../../http/pages/account-parts.js";
import { SIGN_IN_LINK_CODES, SIGN_IN_NOT_ALLOWED_CODE, SIGN_UP_LINK_CODES, SIGN_UP_NOT_ALLOWED_CODE } from "./refusals.js";

/**
 * Its part of the sign-in page: the passkey block above the form (passkeys.js shows it when the
 * browser can use passkeys, and moves it below the form on sign-up) and the way to recovery.
 */
export const passkeySignIn: SignInPart = {
  script: "passkeys.js",
  markup: {
    top: (_c, w) => `<div id="passkey" class="providers" hidden>
    <button type="button" class="provider" id="passkey-sign-in">${w.html("passkey.js.signIn")}</button>
    <button type="button" class="provider" id="passkey-sign-up" hidden>${w.html("passkey.js.create")}</button>
    <p class="or">${w.html("passkey.js.orPassword")}</p>
  </div>`,
    links: (c, w) => `<p class="aside" id="lost-passkey"><a href="${escapeHtml(c.websiteBasePath)}/webauthn/recover">${w.html("passkey.lost")}</a></p>`,
  },
  // What every hosted page says for its refusals (refusals.ts): a passkey whose address another
  // account has (ERR_CODE_030; passkeys.js offers the recovery beside it), a passkey sign-up for an
  // address that has an account (025), and a sign-up (026–028) or sign-in (031–033) that could not
  // join the signed-in account.
  refusals: [
    { kind: "passkey", codes: [SIGN_IN_NOT_ALLOWED_CODE], words: "passkey.js.refusal.passkey" },
    { kind: "taken", codes: [SIGN_UP_NOT_ALLOWED_CODE] },
    ...linkRefusalKinds(SIGN_UP_LINK_CODES, SIGN_IN_LINK_CODES),
  ],
};

/** Its part of "My account": the link to its page, one more way in. */
export const passkeyAccountPage: AccountPagePart = {
  links: (c, w) => [{ place: "ways-in", path: `${c.websiteBasePath}/passkeys`, label: w.t("passkey.link") }],
};

/** GET {websiteBasePath}/passkeys: the signed-in user's passkeys (list, add, remove). */
export const passkeysPage = hostedPage((c, _deps, w) => ({
  title: w.t("passkey.list.title"),
  script: "passkey-list.js",
  main: `<section id="view-list" hidden aria-labelledby="list-title">
  <h1 id="list-title" tabindex="-1">${w.html("passkey.list.title")}</h1>
  ${liveRegions}
  <p id="none" hidden>${w.html("passkey.list.none")}</p>
  <ul id="passkey-list" class="passkeys"></ul>
  <button type="button" id="add-passkey">${w.html("passkey.list.add")}</button>
</section>
<section id="view-signed-out" hidden aria-labelledby="signed-out-title">
  <h1 id="signed-out-title" tabindex="-1">${w.html("passkey.signedOut.title")}</h1>
  <p><a class="button" href="${escapeHtml(c.websiteBasePath)}">${w.html("signIn.title")}</a></p>
</section>`,
}));

/** GET {websiteBasePath}/webauthn/recover[?token=…]: ask for a recovery link, or create a new passkey with it. */
export const passkeyRecoverPage = hostedPage((c, _deps, w) => ({
  title: w.t("passkey.recover.title"),
  script: "passkey-recover.js",
  takesToken: true,
  main: `${requestLinkView(c.websiteBasePath, w.t("passkey.lost"), w.t("passkey.recover.intro"), w)}
<section id="view-sent" hidden aria-labelledby="sent-title">
  <h1 id="sent-title" tabindex="-1">${w.html("checkMail.title")}</h1>
  <p>${w.html("passkey.recover.sent", { address: `<strong id="sent-address" class="passkey-address" dir="ltr"></strong>`, validFor: escapeHtml(describeDuration(c.webauthnRecoveryTokenLifetimeMs, w)) })}</p>
  ${devInboxHint(c, w)}
  <p class="aside"><a href="${escapeHtml(c.websiteBasePath)}">${w.html("page.backToSignIn")}</a></p>
</section>
<section id="view-new" hidden aria-labelledby="new-title">
  <h1 id="new-title" tabindex="-1">${w.html("passkey.new.title")}</h1>
  <p>${w.html("passkey.new.text")}</p>
  <p id="new-error" class="error" role="alert"></p>
  <button type="button" id="create">${w.html("passkey.new.title")}</button>
</section>
<section id="view-done" hidden aria-labelledby="done-title">
  <h1 id="done-title" tabindex="-1">${w.html("passkey.done.title")}</h1>
  <p><a class="button" href="${escapeHtml(c.websiteBasePath)}">${w.html("passkey.done.signIn")}</a></p>
</section>
${invalidLinkView(`${c.websiteBasePath}/webauthn/recover`, w)}`,
}));
