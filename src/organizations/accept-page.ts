import type { Config } from "../config/types.js";
import { hostedPage } from "../http/pages/hosted-pages.js";
import { escapeHtml, liveRegions } from "../http/pages/layout.js";

const b = (c: Readonly<Config>) => escapeHtml(c.websiteBasePath);

/**
 * GET {websiteBasePath}/accept-invitation?token=… (not under /organizations, where the API answers GET /organizations/{id}): where an invitation mail's link lands when
 * the hosted pages are on. token.js takes the token out of the address bar; accept-invitation.js
 * accepts it with the session, or says to sign in (or up) with the invited address first.
 */
export const acceptInvitationPage = hostedPage((c, _deps, w) => ({
  title: "Join an organization",
  script: "accept-invitation.js",
  takesToken: true,
  main: `<section id="view-loading" aria-labelledby="loading-title">
  <h1 id="loading-title" tabindex="-1">Join an organization</h1>
  ${liveRegions}
</section>
<section id="view-signed-out" hidden aria-labelledby="signed-out-title">
  <h1 id="signed-out-title" tabindex="-1">Sign in to accept the invitation</h1>
  <p>Sign in, or sign up, with the address the invitation was sent to, and confirm that address. Then open the link in the mail again.</p>
  <p><a class="button" href="${b(c)}">Sign in or sign up</a></p>
</section>
<section id="view-joined" hidden aria-labelledby="joined-title">
  <h1 id="joined-title" tabindex="-1">You joined <span id="joined-name"></span></h1>
  <p>Your role there: <strong id="joined-role"></strong>. It is now your active organization.</p>
  <p><a class="button" href="${b(c)}/account">Go to my account</a></p>
</section>
<section id="view-refused" hidden aria-labelledby="refused-title">
  <h1 id="refused-title" tabindex="-1">This invitation cannot be accepted</h1>
  <p id="refused-why"></p>
</section>`,
}));
