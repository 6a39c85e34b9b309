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
  title: "Join an organization",
  script: "accept-invitation.js",
  takesToken: true,
  main: `<section id="view-loading" aria-labelledby="loading-title">
  <h1 id="loading-title" tabindex="-1">Join an organization</h1>
  ${liveRegions}
</section>
<section id="view-sign-up" hidden aria-labelledby="sign-up-title">
  <h1 id="sign-up-title" tabindex="-1">Join <span class="invited-org"></span></h1>
  <p>You are invited as <strong class="invited-role"></strong>. Create your account for <strong class="invited-email"></strong> to accept: the invitation already confirms this address.</p>
  <p id="sign-up-error" class="error" role="alert"></p>
  <form id="sign-up-form" method="post" novalidate>
    ${field({ id: "password", label: "Choose a password", type: "password", autocomplete: "new-password", empty: "Choose a password.", hint: passwordHint(c, w) }, w)}
    <button type="submit" id="sign-up">Create my account and join</button>
  </form>
</section>
<section id="view-signed-out" hidden aria-labelledby="signed-out-title">
  <h1 id="signed-out-title" tabindex="-1">Sign in to accept the invitation</h1>
  <p>Sign in with the address the invitation was sent to<span class="invited-email-sentence"></span>. Then open the link in the mail again.</p>
  <p><a class="button" href="${b(c)}">Sign in</a></p>
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
