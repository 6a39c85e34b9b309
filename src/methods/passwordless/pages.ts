import type { Config } from "../../config/types.js";
import { describeDurationInWords } from "../../util/duration.js";
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
    { kind: "noCode", codes: [PASSWORDLESS_CODES.signUp, PASSWORDLESS_CODES.signIn], words: "This address cannot sign in with a code here: another account uses it. Sign in the way you used before." },
    ...linkRefusalKinds(PASSWORDLESS_CODES.link),
  ],
};

const restartView = (c: Readonly<Config>) => `<section id="view-restart" hidden aria-labelledby="restart-title">
  <h1 id="restart-title" tabindex="-1">Start again</h1>
  <p id="restart-text"></p>
  <p><a class="button restart" href="${escapeHtml(c.websiteBasePath)}">Back to sign in</a></p>
</section>`;

/** GET {websiteBasePath}/sign-in-code: type the mailed code (the sign-in page started the flow). */
export const signInCodePage = hostedPage((c, _deps, w) => ({
  title: "Enter your code",
  script: "sign-in-code.js",
  main: `<section id="view-code" hidden aria-labelledby="code-title">
  <h1 id="code-title" tabindex="-1">Check your email</h1>
  <p>We sent a mail to <strong id="code-address"></strong>. <span id="code-text"></span> It works for ${escapeHtml(describeDurationInWords(c.passwordlessCodeLifetimeMs))}.</p>
  ${liveRegions}
  <form id="code-form" method="post" novalidate>
    ${field({ id: "code", label: "Code", type: "text", autocomplete: "one-time-code", empty: "Enter the 6-digit code from the mail." }, w)}
    <button type="submit">Sign in</button>
  </form>
  <p id="send-again-status" class="status" role="status" aria-live="polite"></p>
  <div class="actions">
    <button type="button" class="secondary" id="send-again">Send a new mail</button>
    <a class="restart" href="${escapeHtml(c.websiteBasePath)}">Use another address</a>
  </div>
  ${devInboxHint(c, w)}
</section>
${restartView(c)}
${checkMailView(c, w)}`,
}));

/** GET {websiteBasePath}/verify?preAuthSessionId=…#linkCode: the mailed link's landing page. */
export const signInLinkPage = hostedPage((c, _deps, w) => ({
  title: "Sign in",
  script: "sign-in-link.js",
  main: `<section id="view-progress" aria-labelledby="progress-title">
  <h1 id="progress-title" tabindex="-1">Signing you in…</h1>
  ${liveRegions}
</section>
<section id="view-confirm" hidden aria-labelledby="confirm-title">
  <h1 id="confirm-title" tabindex="-1">Sign in on this device?</h1>
  <p>This link was asked for in another browser. Sign in here only if you opened it yourself.</p>
  <button type="button" id="continue">Sign in on this device</button>
</section>
<section id="view-invalid" hidden aria-labelledby="invalid-title">
  <h1 id="invalid-title" tabindex="-1">This link no longer works</h1>
  <p>The link has expired, has already been used, or was replaced by a newer sign-in.</p>
  <p><a class="button" href="${escapeHtml(c.websiteBasePath)}">Back to sign in</a></p>
</section>
${checkMailView(c, w)}`,
}));
