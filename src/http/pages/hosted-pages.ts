import { defineEventHandler, type EventHandler } from "h3";
import type { Config } from "../../config/types.js";
import type { HttpDeps } from "../deps.js";
import { setPageHeaders } from "./headers.js";
import { describeDurationInWords } from "../../util/duration.js";
import { passwordlessChoice } from "./passwordless-choice.js";
import { devInboxHint, escapeHtml, field, invalidLinkView, liveRegions, renderPage, requestLinkView, type PageSpec } from "./layout.js";
import { lostPasskeyLink, passkeySignInBlock } from "./passkey-markup.js";

/** What every hosted page's script is told: where the API is, where to go afterwards, the policy. */
export function pageData(config: Readonly<Config>, returnPaths: readonly string[] = config.pagesRedirectPaths): Record<string, string> {
  return {
    "api-base": config.apiBasePath,
    "web-base": config.websiteBasePath,
    "website-url": config.websiteUrl,
    "redirect-paths": returnPaths.join(","),
    "password-min": String(config.passwordMinLength),
  };
}

/** A hosted page handler: same headers and layout for all; `main` is built once per config. */
export function hostedPage(build: (config: Readonly<Config>) => Omit<PageSpec, "assets" | "data">) {
  return (deps: HttpDeps): EventHandler => {
    const config = deps.ctx.config;
    const html = renderPage(config, { ...build(config), assets: `${config.websiteBasePath}/_assets`, data: pageData(config, deps.tables.returnPaths(config)) }, deps.tables.assets);
    return defineEventHandler((event) => {
      setPageHeaders(event, config);
      return html;
    });
  };
}

const passwordHint = (c: Readonly<Config>) => `At least ${c.passwordMinLength} characters.`;

/** Signed in but not verified yet: the view both sign-in and the third-party callback end in. */
export const checkMailView = (c: Readonly<Config>) => `<section id="view-check-mail" hidden aria-labelledby="check-mail-title">
  <h1 id="check-mail-title" tabindex="-1">Check your email</h1>
  <p>We sent a link to <strong id="check-mail-address">your address</strong>. Open it to verify your email address.</p>
  <p id="resend-status" class="status" role="status" aria-live="polite"></p>
  <button type="button" id="resend">Send the mail again</button>
  ${devInboxHint(c)}
</section>`;

/** GET {websiteBasePath}: sign in or sign up (?show=signup), email/password and the configured providers. */
export const signInPage = hostedPage((c) => ({
  title: "Sign in",
  script: "sign-in.js",
  // Hidden until the script knows there is no live session to resume (see sign-in.js).
  main: `<section id="view-form" aria-labelledby="form-title" hidden>
  <h1 id="form-title" tabindex="-1">Sign in</h1>
  <p class="switch"><span id="switch-text">No account yet?</span> <button type="button" class="link" id="switch">Sign up</button></p>
  <div id="providers" class="providers" hidden></div>
  ${passkeySignInBlock}
  ${liveRegions}
  <form id="form" novalidate>
    ${field({ id: "email", label: "Email", type: "email", autocomplete: "email", empty: "Enter your email address." })}
    ${field({ id: "password", label: "Password", type: "password", autocomplete: "current-password", empty: "Enter your password.", hint: passwordHint(c) })}
    <button type="submit" id="submit">Sign in</button>
  </form>
  ${passwordlessChoice}
  <p class="aside" id="forgot"><a href="${escapeHtml(c.websiteBasePath)}/reset-password">Forgot your password?</a></p>
  ${lostPasskeyLink(c)}
</section>
${checkMailView(c)}`,
}));

/**
 * GET {websiteBasePath}/sign-out[?redirectToPath=…]: asks first. Opening the page signs nobody out
 * (a link from any site could, else); the button's POST /signout from this page does, then the
 * browser goes to the allowed redirect.
 */
export const signOutPage = hostedPage((c) => ({
  title: "Sign out",
  script: "sign-out.js",
  main: `<section id="view-progress" aria-labelledby="progress-title">
  <h1 id="progress-title" tabindex="-1">Sign out?</h1>
  ${liveRegions}
  <form id="sign-out-form" novalidate>
    <button type="submit" id="sign-out">Sign out</button>
  </form>
  <p class="aside"><a id="stay" href="${escapeHtml(c.websiteBasePath)}">Stay signed in</a></p>
  <p id="retry" hidden><a href="${escapeHtml(c.websiteBasePath)}">Back to sign in</a></p>
</section>`,
}));

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

/** GET {websiteBasePath}/verify-email?token=…: consumes the token by POST from script, never on the GET itself. */
export const verifyEmailPage = hostedPage((c) => ({
  title: "Verify your email",
  script: "verify-email.js",
  takesToken: true,
  main: `<section id="view-progress" aria-labelledby="progress-title">
  <h1 id="progress-title" tabindex="-1">Verify your email</h1>
  ${liveRegions}
  <button type="button" id="verify" hidden>Verify my email</button>
</section>
<section id="view-done" hidden aria-labelledby="done-title">
  <h1 id="done-title" tabindex="-1">Email verified</h1>
  <p>Thank you: your email address is verified.</p>
  <p><a class="button" id="continue" href="/">Continue</a></p>
</section>
<section id="view-invalid" hidden aria-labelledby="invalid-title">
  <h1 id="invalid-title" tabindex="-1">This link no longer works</h1>
  <p id="invalid-text">The link has expired, has already been used, or was replaced by a newer one.</p>
  <p id="resend-status" role="status" aria-live="polite"></p>
  <button type="button" id="resend">Send me a new link</button>
</section>
<section id="view-sign-in" hidden aria-labelledby="sign-in-title">
  <h1 id="sign-in-title" tabindex="-1">Sign in to finish</h1>
  <p>To verify your email, sign in with the account the mail was sent to.</p>
  <p id="sign-in-error" class="error" role="alert"></p>
  <form id="sign-in-form" novalidate>
    ${field({ id: "email", label: "Email", type: "email", autocomplete: "email", empty: "Enter your email address." })}
    ${field({ id: "password", label: "Password", type: "password", autocomplete: "current-password", empty: "Enter your password." })}
    <button type="submit">Sign in and verify</button>
  </form>
  <p class="aside"><a href="${escapeHtml(c.websiteBasePath)}">Sign in another way</a></p>
</section>`,
}));

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
  <form id="new-form" novalidate>
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
