import type { Config } from "../../config/types.js";
import { describeDurationInWords } from "../../util/duration.js";
import { hostedPage, passwordHint } from "../../http/pages/hosted-pages.js";
import { devInboxHint, escapeHtml, field, invalidLinkView, requestLinkView } from "../../http/pages/layout.js";
import { linkRefusalKinds, type SignInPart } from "../../http/pages/sign-in-parts.js";
import type { AccountPagePart } from "../../http/pages/account-parts.js";
import { SIGN_IN_LINK_CODES, SIGN_IN_NOT_ALLOWED_CODE, SIGN_UP_LINK_CODES, SIGN_UP_NOT_ALLOWED_CODE } from "./refusals.js";

/**
 * Its part of the sign-in page: the address and password form (the other rooms' parts use its
 * email field: a code for that address, a passkey for it) and the way to a forgotten password;
 * password-sign-in.js submits it.
 */
export const passwordSignIn: SignInPart = {
  script: "password-sign-in.js",
  markup: {
    form: (c) => `<form id="form" method="post" novalidate>
    ${field({ id: "email", label: "Email", type: "email", autocomplete: "email", empty: "Enter your email address." })}
    ${field({ id: "password", label: "Password", type: "password", autocomplete: "current-password", empty: "Enter your password.", hint: passwordHint(c) })}
    <button type="submit" id="submit">Sign in</button>
  </form>`,
    links: (c: Readonly<Config>) => `<p class="aside" id="forgot"><a href="${escapeHtml(c.websiteBasePath)}/reset-password">Forgot your password?</a></p>`,
  },
  inPlace: () => `<form id="sign-in-form" method="post" novalidate>
    ${field({ id: "email", label: "Email", type: "email", autocomplete: "email", empty: "Enter your email address." })}
    ${field({ id: "password", label: "Password", type: "password", autocomplete: "current-password", empty: "Enter your password." })}
    <button type="submit">Sign in and verify</button>
  </form>`,
  // What every hosted page says for its refusals (refusals.ts): a sign-up for an address that has an
  // account (ERR_CODE_007), the right password on an unverified login whose address another account
  // has (008; password-sign-in.js offers the reset link that proves it), and a sign-in (009–011) or
  // sign-up (013–015) that could not join the signed-in account.
  refusals: [
    { kind: "unverified", codes: [SIGN_IN_NOT_ALLOWED_CODE], words: "Verify your address first: another account uses this address too. We email you a link; opening it shows the address is yours, and you choose your password there." },
    { kind: "taken", codes: [SIGN_UP_NOT_ALLOWED_CODE] },
    ...linkRefusalKinds(SIGN_IN_LINK_CODES, SIGN_UP_LINK_CODES),
  ],
};

/**
 * Its part of "My account": the change-password form (after "How you sign in"), and the password
 * the address change form asks for (#email-password: the proof the account's POST /account/email
 * takes); account-password.js submits the one and reads the other.
 */
export const passwordAccountPage: AccountPagePart = {
  script: "account-password.js",
  markup: {
    "after-logins": (c) => `<h2>Change your password</h2>
  <p id="password-status" class="status" role="status" aria-live="polite"></p>
  <p id="password-error" class="error" role="alert"></p>
  <form id="password-form" method="post" novalidate>
    ${field({ id: "current-password", label: "Current password", type: "password", autocomplete: "current-password", empty: "Enter your current password." })}
    ${field({ id: "new-password", label: "New password", type: "password", autocomplete: "new-password", empty: "Enter a new password.", hint: passwordHint(c) })}
    <button type="submit">Change password</button>
  </form>`,
    "email-proof": () => field({ id: "email-password", label: "Password", type: "password", autocomplete: "current-password", empty: "Enter your password." }),
  },
};

/** GET {websiteBasePath}/reset-password[?token=…]: ask for a link, or set the new password. */
export const resetPasswordPage = hostedPage((c) => ({
  title: "Reset your password",
  script: "reset-password.js",
  takesToken: true,
  main: `${requestLinkView(c.websiteBasePath, "Reset your password", "Enter your email address and we will send you a link to choose a new password.")}
<section id="view-sent" hidden aria-labelledby="sent-title">
  <h1 id="sent-title" tabindex="-1">Check your email</h1>
  <p>If an account exists for <strong id="sent-address"></strong>, we sent it a link to reset the password. The link works for ${escapeHtml(describeDurationInWords(c.passwordResetTokenLifetimeMs))}.</p>
  <p>No mail after a few minutes? Look in your spam folder, or send it again.</p>
  ${devInboxHint(c)}
  <p id="sent-status" class="status" role="status" aria-live="polite"></p>
  <p id="sent-error" class="error" role="alert"></p>
  <div class="actions">
    <button type="button" id="send-again">Send the link again</button>
    <button type="button" class="secondary" id="other-address">Use another address</button>
  </div>
  <p class="aside"><a href="${escapeHtml(c.websiteBasePath)}">Back to sign in</a></p>
</section>
<section id="view-new" hidden aria-labelledby="new-title">
  <h1 id="new-title" tabindex="-1">Choose a new password</h1>
  <p id="new-error" class="error" role="alert"></p>
  <form id="new-form" method="post" novalidate>
    <!-- For password managers: which account the new password belongs to (filled by reset-password.js when known). -->
    <input type="email" id="username" name="username" autocomplete="username" hidden readonly>
    ${field({ id: "password", label: "New password", type: "password", autocomplete: "new-password", empty: "Enter a new password.", hint: passwordHint(c) })}
    ${field({ id: "confirm", label: "New password again", type: "password", autocomplete: "new-password", empty: "Enter the new password again." })}
    <button type="submit">Change password</button>
  </form>
</section>
<section id="view-changed" hidden aria-labelledby="changed-title">
  <h1 id="changed-title" tabindex="-1">Password changed</h1>
  <p>Your password was changed and you were signed out everywhere.</p>
  <p><a class="button" href="${escapeHtml(c.websiteBasePath)}">Sign in</a></p>
</section>
${invalidLinkView(`${c.websiteBasePath}/reset-password`)}`,
}));
