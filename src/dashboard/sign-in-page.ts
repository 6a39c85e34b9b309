import type { Config } from "../config/types.js";
import { DASHBOARD_PATH, escapeHtml } from "./kit.js";
import { renderPlainPage } from "./plain-page.js";
import { launchCommand } from "../util/launch-command.js";

export interface SignInView {
  /** Where to go once signed in (already checked to be a dashboard path). */
  next: string;
  email?: string;
  /** Why the last attempt was refused (shown as an alert, focused fields keep their values). */
  error?: string;
  /** A message about what just happened (signed out, session ended). */
  notice?: string;
  /** No admin exists yet: say how to create one. */
  noAdmins?: boolean;
}

/**
 * The sign-in form: address, password and the 6-digit code in one form, so a guesser learns
 * nothing from which step failed. Works without script; autocomplete hints let password managers
 * and authenticator autofill help.
 */
export function renderSignInPage(config: Readonly<Config>, v: SignInView): string {
  const notice = v.notice ? `<p class="flash ok" role="status">${escapeHtml(v.notice)}</p>\n` : "";
  const error = v.error ? `<p class="error" role="alert" id="sign-in-error">${escapeHtml(v.error)}</p>\n` : "";
  const described = v.error ? ' aria-describedby="sign-in-error"' : "";
  const first = v.noAdmins
    ? `<section class="panel" aria-labelledby="no-admin"><h2 id="no-admin">No admin yet</h2><p>Create the first admin on the server, from a terminal:</p>
<p><code>${escapeHtml(launchCommand())} admins create you@example.com</code></p>
<p class="muted">It asks for a password and shows the second-factor secret (QR code) to add to an authenticator app. See docs/admin-dashboard.md.</p></section>\n`
    : "";
  return renderPlainPage(config, {
    title: "Sign in to the admin dashboard",
    main: `${notice}${first}${error}<form method="post" action="${DASHBOARD_PATH}/sign-in" class="panel sign-in"${described}>
<input type="hidden" name="next" value="${escapeHtml(v.next)}">
<div class="field"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(v.email ?? "")}"></div>
<div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
<div class="field"><label for="code">Code from your authenticator app</label><p class="hint" id="code-hint">6 digits; each code works once.</p><input id="code" name="code" type="text" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required aria-describedby="code-hint"></div>
<button type="submit">Sign in</button>
</form>`,
  });
}
