import { hostedPage } from "../http/pages/hosted-pages.js";
import { escapeHtml, liveRegions } from "../http/pages/layout.js";

/** GET {websiteBasePath}/connected-apps: the apps the signed-in person allowed, each with Disconnect. */
export const connectedAppsPage = hostedPage((c, _deps, w) => ({
  title: w.t("oauth.apps.title"),
  script: "connected-apps.js",
  main: `<section id="view-list" hidden aria-labelledby="list-title">
  <h1 id="list-title" tabindex="-1">${w.html("oauth.apps.title")}</h1>
  ${liveRegions}
  <p>${w.html("oauth.apps.intro")}</p>
  <p id="none" hidden>${w.html("oauth.apps.none")}</p>
  <ul id="apps" class="apps"></ul>
  <p><a href="${escapeHtml(c.websiteBasePath)}/account">${w.html("oauth.apps.back")}</a></p>
</section>
<section id="view-signed-out" hidden aria-labelledby="signed-out-title">
  <h1 id="signed-out-title" tabindex="-1">${w.html("oauth.apps.signInFirst")}</h1>
  <p><a class="button" href="${escapeHtml(c.websiteBasePath)}">${w.html("signIn.title")}</a></p>
</section>`,
}));
