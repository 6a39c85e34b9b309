import type { Config } from "../config/types.js";
import { hostedPage, passwordHint } from "../http/pages/hosted-pages.js";
import { escapeHtml, field, liveRegions } from "../http/pages/layout.js";

const b = (c: Readonly<Config>) => escapeHtml(c.websiteBasePath);

/**
 * GET {websiteBasePath}/accept-invitation?token=… (not under /organizations, where the API answers GET /organizations/{id}): where an invitation mail's link lands when
 * the hosted pages are on. token.js takes the token out of the address bar; accept-invitation.js
 * accepts it with the session; signed out, a new person creates their account right here (the
 * link proves the mailbox: verified, joined, signed in, no other mail), and someone whose address
 * has an account is asked to sign in with it first.
 */
export const acceptInvitationPage = hostedPage((c, _deps, w) => ({
  title: w.t("org.accept.title"),
  script: "accept-invitation.js",
  takesToken: true,
  main: `<section id="view-loading" aria-labelledby="loading-title">
  <h1 id="loading-title" tabindex="-1">${w.html("org.accept.title")}</h1>
  ${liveRegions}
</section>
<section id="view-sign-up" hidden aria-labelledby="sign-up-title">
  <h1 id="sign-up-title" tabindex="-1">${w.html("org.accept.join", { org: `<span class="invited-org"></span>` })}</h1>
  <p>${w.html("org.accept.invited", { role: `<strong class="invited-role"></strong>`, email: `<strong class="invited-email"></strong>` })}</p>
  <p id="sign-up-error" class="error" role="alert"></p>
  <form id="sign-up-form" method="post" novalidate>
    ${field({ id: "password", label: w.t("org.accept.password"), type: "password", autocomplete: "new-password", empty: w.t("org.accept.password.empty"), hint: passwordHint(c, w) }, w)}
    <button type="submit" id="sign-up">${w.html("org.accept.create")}</button>
  </form>
</section>
<section id="view-signed-out" hidden aria-labelledby="signed-out-title">
  <h1 id="signed-out-title" tabindex="-1">${w.html("org.accept.signIn.title")}</h1>
  <p>${w.html("org.accept.signIn.text", { email: `<span class="invited-email"></span>` })}</p>
  <p><a class="button" href="${b(c)}">${w.html("signIn.title")}</a></p>
</section>
<section id="view-joined" hidden aria-labelledby="joined-title">
  <h1 id="joined-title" tabindex="-1">${w.html("org.accept.joined", { org: `<span id="joined-name"></span>` })}</h1>
  <p>${w.html("org.accept.role", { role: `<strong id="joined-role"></strong>` })}</p>
  <p><a class="button" href="${b(c)}/account">${w.html("org.accept.toAccount")}</a></p>
</section>
<section id="view-refused" hidden aria-labelledby="refused-title">
  <h1 id="refused-title" tabindex="-1">${w.html("org.accept.refused")}</h1>
  <p id="refused-why"></p>
</section>`,
}));
