import type { Config } from "../../config/types.js";
import { describeDuration } from "../../words/durations.js";
import type { Words } from "../../words/words.js";
import { checkMailView, hostedPage } from "../../http/pages/hosted-pages.js";
import { devInboxHint, escapeHtml, field, liveRegions } from "../../http/pages/layout.js";
import { linkRefusalKinds, type SignInPart } from "../../http/pages/sign-in-parts.js";
import { PASSWORDLESS_CODES } from "./refusals.js";

/**
 * Its part of the sign-in page: the button that mails a code (or a link) to the address typed in
 * the form above; passwordless.js shows it when the server offers a code or a link.
 */
export const codeSignIn: SignInPart = {
  script: "passwordless.js",
  markup: {
    choices: (_c, w) => `<div id="passwordless" class="passwordless" hidden>
    <p class="or">${w.html("code.js.or")}</p>
    <button type="button" class="secondary" id="passwordless-start">${w.html("code.js.emailCode")}</button>
  </div>`,
  },
  // What every hosted page says for its refusals (refusals.ts): a code for an address another account
  // holds unverified, or two accounts do (ERR_CODE_002 on sign-up, 003 on sign-in), and a code that
  // could not join the signed-in account (017–019).
  refusals: [
    { kind: "noCode", codes: [PASSWORDLESS_CODES.signUp, PASSWORDLESS_CODES.signIn], words: "code.js.refusal.noCode" },
    ...linkRefusalKinds(PASSWORDLESS_CODES.link),
  ],
};

const restartView = (c: Readonly<Config>, w: Words) => `<section id="view-restart" hidden aria-labelledby="restart-title">
  <h1 id="restart-title" tabindex="-1">${w.html("code.restart.title")}</h1>
  <p id="restart-text"></p>
  <p><a class="button restart" href="${escapeHtml(c.websiteBasePath)}">${w.html("page.backToSignIn")}</a></p>
</section>`;

/** GET {websiteBasePath}/sign-in-code: type the mailed code (the sign-in page started the flow). */
export const signInCodePage = hostedPage((c, _deps, w) => ({
  title: w.t("code.page.title"),
  script: "sign-in-code.js",
  main: `<section id="view-code" hidden aria-labelledby="code-title">
  <h1 id="code-title" tabindex="-1">${w.html("checkMail.title")}</h1>
  <p>${w.html("code.page.sent", { address: `<strong id="code-address" class="code-address" dir="ltr"></strong>`, instructions: `<span id="code-text"></span>`, validFor: escapeHtml(describeDuration(c.passwordlessCodeLifetimeMs, w)) })}</p>
  ${liveRegions}
  <form id="code-form" method="post" novalidate>
    ${field({ id: "code", label: w.t("code.field.label"), type: "text", autocomplete: "one-time-code", empty: w.t("code.field.empty") }, w)}
    <button type="submit">${w.html("code.page.signIn")}</button>
  </form>
  <p id="send-again-status" class="status" role="status" aria-live="polite"></p>
  <div class="actions">
    <button type="button" class="secondary" id="send-again">${w.html("code.page.sendNew")}</button>
    <a class="restart" href="${escapeHtml(c.websiteBasePath)}">${w.html("code.page.otherAddress")}</a>
  </div>
  ${devInboxHint(c, w)}
</section>
${restartView(c, w)}
${checkMailView(c, w)}`,
}));

/** GET {websiteBasePath}/verify?preAuthSessionId=…#linkCode: the mailed link's landing page. */
export const signInLinkPage = hostedPage((c, _deps, w) => ({
  title: w.t("signIn.title"),
  script: "sign-in-link.js",
  main: `<section id="view-progress" aria-labelledby="progress-title">
  <h1 id="progress-title" tabindex="-1">${w.html("code.link.progress")}</h1>
  ${liveRegions}
</section>
<section id="view-confirm" hidden aria-labelledby="confirm-title">
  <h1 id="confirm-title" tabindex="-1">${w.html("code.link.confirm.title")}</h1>
  <p>${w.html("code.link.confirm.text")}</p>
  <button type="button" id="continue">${w.html("code.link.confirm.button")}</button>
</section>
<section id="view-invalid" hidden aria-labelledby="invalid-title">
  <h1 id="invalid-title" tabindex="-1">${w.html("page.invalid.title")}</h1>
  <p>${w.html("code.link.invalid.text")}</p>
  <p><a class="button" href="${escapeHtml(c.websiteBasePath)}">${w.html("page.backToSignIn")}</a></p>
</section>
${checkMailView(c, w)}`,
}));
