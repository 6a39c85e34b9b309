import { hostedPage } from "../http/pages/hosted-pages.js";
import { liveRegions } from "../http/pages/layout.js";

/**
 * GET {websiteBasePath}/not-me?token=…: where the new sign-in mail's "This wasn't me" lands. One
 * button (a link a mail scanner opens must not sign anyone out): it signs every device and app out
 * (not-me.js, POST /security/not-me), then sends the person to choose a new password.
 */
export const notMePage = hostedPage(() => ({
  title: "This wasn't me",
  script: "not-me.js",
  takesToken: true,
  main: `<section id="view-ask" aria-labelledby="ask-title">
  <h1 id="ask-title" tabindex="-1">Someone else signed in?</h1>
  <p>Sign every device and app out of your account now. Then choose a new password, so whoever signed in cannot again.</p>
  ${liveRegions}
  <button type="button" id="not-me" class="danger">Sign everything out</button>
</section>
<section id="view-done" hidden aria-labelledby="done-title">
  <h1 id="done-title" tabindex="-1">Everything is signed out</h1>
  <p>Every device and app signed in to your account has been signed out. Now choose a new password.</p>
  <p><a class="button" id="reset-link" href="#">Choose a new password</a></p>
</section>
<section id="view-refused" hidden aria-labelledby="refused-title">
  <h1 id="refused-title" tabindex="-1">This link does not work</h1>
  <p>It was already used, or it has expired. If you still think someone else signed in, reset your password.</p>
</section>`,
}));
