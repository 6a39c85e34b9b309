import { checkMailView, hostedPage } from "../../http/pages/hosted-pages.js";
import { liveRegions } from "../../http/pages/layout.js";
import { linkRefusalKinds, type SignInPart } from "../../http/pages/sign-in-parts.js";
import { LINK_CODES, SIGN_IN_NOT_ALLOWED_CODE, SIGN_UP_NOT_ALLOWED_CODE } from "./refusals.js";

/** Its part of the sign-in page: one button per configured provider (providers.js fills the box from GET /loginmethods). */
export const providerSignIn: SignInPart = {
  script: "providers.js",
  markup: { top: () => `<div id="providers" class="providers" hidden></div>` },
  // What every hosted page says for its refusals (refusals.ts): a new identity for an address that has
  // an account (ERR_CODE_006), an identity the provider does not confirm whose address another account
  // has (004), and an identity that could not join the signed-in account (020–022).
  refusals: [
    { kind: "elsewhere", codes: [SIGN_IN_NOT_ALLOWED_CODE], words: "thirdParty.js.refusal.elsewhere" },
    { kind: "taken", codes: [SIGN_UP_NOT_ALLOWED_CODE] },
    ...linkRefusalKinds(LINK_CODES),
  ],
};

/** GET {websiteBasePath}/callback/:thirdPartyId: where a provider sends the browser back. */
export const callbackPage = hostedPage((c, _deps, w) => ({
  title: w.t("thirdParty.callback.title"),
  script: "callback.js",
  main: `<section id="view-progress" aria-labelledby="progress-title">
  <h1 id="progress-title" tabindex="-1">${w.html("thirdParty.callback.progress")}</h1>
  ${liveRegions}
  <p id="retry" hidden><a id="retry-link" href="#">${w.html("page.backToSignIn")}</a></p>
</section>
${checkMailView(c, w)}`,
}));
