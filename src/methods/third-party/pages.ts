import { checkMailView, hostedPage } from "../../http/pages/hosted-pages.js";
import { liveRegions } from "../../http/pages/layout.js";
import type { SignInPart } from "../../http/pages/sign-in-parts.js";

/** Its part of the sign-in page: one button per configured provider (providers.js fills the box from GET /loginmethods). */
export const providerSignIn: SignInPart = {
  script: "providers.js",
  markup: { top: () => `<div id="providers" class="providers" hidden></div>` },
};

/** GET {websiteBasePath}/callback/:thirdPartyId: where a provider sends the browser back. */
export const callbackPage = hostedPage((c) => ({
  title: "Signing in",
  script: "callback.js",
  main: `<section id="view-progress" aria-labelledby="progress-title">
  <h1 id="progress-title" tabindex="-1">Signing you in…</h1>
  ${liveRegions}
  <p id="retry" hidden><a id="retry-link" href="#">Back to sign in</a></p>
</section>
${checkMailView(c)}`,
}));
