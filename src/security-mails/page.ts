import { hostedPage } from "../http/pages/hosted-pages.js";
import { liveRegions } from "../http/pages/layout.js";

/**
 * GET {websiteBasePath}/not-me?token=…: where the new sign-in mail's "This wasn't me" lands. One
 * button (a link a mail scanner opens must not sign anyone out): it signs every device and app out
 * (not-me.js, POST /security/not-me), then sends the person to choose a new password.
 */
export const notMePage = hostedPage((_c, _deps, w) => ({
  title: w.t("notMe.title"),
  script: "not-me.js",
  takesToken: true,
  main: `<section id="view-ask" aria-labelledby="ask-title">
  <h1 id="ask-title" tabindex="-1">${w.html("notMe.ask.title")}</h1>
  <p>${w.html("notMe.ask.text")}</p>
  ${liveRegions}
  <button type="button" id="not-me" class="danger">${w.html("notMe.ask.button")}</button>
</section>
<section id="view-done" hidden aria-labelledby="done-title">
  <h1 id="done-title" tabindex="-1">${w.html("notMe.done.title")}</h1>
  <p>${w.html("notMe.done.text")}</p>
  <p><a class="button" id="reset-link" href="#">${w.html("notMe.done.reset")}</a></p>
</section>
<section id="view-refused" hidden aria-labelledby="refused-title">
  <h1 id="refused-title" tabindex="-1">${w.html("notMe.refused.title")}</h1>
  <p>${w.html("notMe.refused.text")}</p>
</section>`,
}));
