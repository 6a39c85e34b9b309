import { hashToken } from "../../util/random.js";
import { readSessionCookie } from "../cookies.js";
import { actionForm, DASHBOARD_PATH, done, escapeHtml, formatTime, type DashboardRequest, type DashboardResult } from "../kit.js";
import { renderDashboardPage } from "../layout.js";
import { endOtherSessions, listOwnSessions } from "./own-sessions.js";

/** Where the signed-in admin sees their own dashboard sessions. */
export const ACCOUNT_PATH = `${DASHBOARD_PATH}/account`;

/** The hash of this request's session (the mount let it through, so the cookie is there and live). */
const currentHash = (r: DashboardRequest) => hashToken(readSessionCookie(r.event, r.ctx.config) ?? "");

/** GET /admin/account: "Your admin account": the sessions, and signing out the others. */
export async function showAccount(r: DashboardRequest): Promise<DashboardResult> {
  const sessions = await listOwnSessions(r.ctx, r.admin.id, currentHash(r));
  const rows = sessions.map((s) => `<tr><td>${formatTime(s.createdAt)}${s.current ? ' <span class="badge ok">this browser</span>' : ""}</td><td>${formatTime(s.lastSeenAt)}</td><td class="mono">${escapeHtml(s.ip ?? "")}</td><td>${escapeHtml(s.userAgent ?? "")}</td></tr>`).join("\n");
  const others = sessions.filter((s) => !s.current).length;
  return renderDashboardPage(r, {
    title: "Your admin account",
    section: ACCOUNT_PATH,
    main: `<dl class="facts"><dt>Email</dt><dd>${escapeHtml(r.admin.email)}</dd><dt>Sessions end</dt><dd>after ${Math.round(r.ctx.config.adminSessionIdleMs / 60_000)} minutes unused, or ${Math.round(r.ctx.config.adminSessionMaxLifetimeMs / 3_600_000)} hours after sign-in</dd></dl>
<section class="panel" aria-labelledby="sessions-h"><h2 id="sessions-h">Where you are signed in</h2>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="sessions-h"><table><thead><tr><th scope="col">Signed in</th><th scope="col">Last used</th><th scope="col">IP address</th><th scope="col">Browser</th></tr></thead><tbody>
${rows}
</tbody></table></div>
<div class="actions">${others ? actionForm(r, { action: `${ACCOUNT_PATH}/sign-out-others`, label: `Sign out my ${others} other session${others === 1 ? "" : "s"}` }) : '<p class="muted">No other session.</p>'}</div>
<p class="muted">A new password or second factor is set on the server: <code>authsvc admins reset-password</code>, <code>authsvc admins reset-2fa</code>.</p>
</section>`,
  });
}

/** POST /admin/account/sign-out-others: ends every other session of this admin. */
export async function signOutOthers(r: DashboardRequest): Promise<DashboardResult> {
  const n = await endOtherSessions(r.ctx, r.admin.id, currentHash(r), r.source);
  return done(ACCOUNT_PATH, n === 0 ? "There was no other session." : `Signed out of ${n} other session${n === 1 ? "" : "s"}.`);
}
