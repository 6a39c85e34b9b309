import { hostedPage } from "../http/pages/hosted-pages.js";
import { escapeHtml, liveRegions } from "../http/pages/layout.js";

/** GET {websiteBasePath}/connected-apps: the apps the signed-in person allowed, each with Disconnect. */
export const connectedAppsPage = hostedPage((c, _deps, w) => ({
  title: "Connected apps",
  script: "connected-apps.js",
  main: `<section id="view-list" hidden aria-labelledby="list-title">
  <h1 id="list-title" tabindex="-1">Connected apps</h1>
  ${liveRegions}
  <p>Apps you allowed to use your account. Disconnect one you no longer use: it must ask you again.</p>
  <p id="none" hidden>You have not allowed any app.</p>
  <ul id="apps" class="apps"></ul>
  <p><a href="${escapeHtml(c.websiteBasePath)}/account">Back to my account</a></p>
</section>
<section id="view-signed-out" hidden aria-labelledby="signed-out-title">
  <h1 id="signed-out-title" tabindex="-1">Sign in first</h1>
  <p><a class="button" href="${escapeHtml(c.websiteBasePath)}">Sign in</a></p>
</section>`,
}));
