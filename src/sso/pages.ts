import type { SignInPart } from "../http/pages/sign-in-parts.js";

/**
 * Its part of the hosted sign-in page, just below the address form: the button to the address's
 * organization's IdP and a note (sso-routing.js fills and shows them from POST /sso/discover; the
 * words are js.sso.*, in the page's language). Hidden until an address routes somewhere.
 */
export const ssoSignIn: SignInPart = {
  script: "sso-routing.js",
  markup: {
    choices: () => `<div id="sso-route" class="providers sso-route" hidden>
    <p id="sso-note" class="sso-note" aria-live="polite"></p>
    <button type="button" id="sso-start" class="provider"></button>
  </div>`,
  },
};

/** Its style: the note reads as part of the choice, a required one stands out. */
export const ssoStyles = `.sso-route .sso-note { margin: 0; color: var(--muted); }
.sso-route.sso-required .sso-note { color: var(--fg); font-weight: 600; }`;
