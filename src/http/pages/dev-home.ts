import { defineEventHandler, type EventHandler } from "h3";
import { listRecentEvents } from "../../core/dev-inbox.js";
import type { HttpDeps } from "../deps.js";
import { maskUrlPassword } from "../../util/mask-url.js";
import { launchCommand } from "../../util/launch-command.js";
import { setPageHeaders } from "./headers.js";
import { escapeHtml as e, renderPage } from "./layout.js";
import { pageData } from "./hosted-pages.js";
import { accountLinkPlaces, accountLinksAt } from "./account-parts.js";

/** GET / in development mode: what is running, where to click, and what just happened. */
export const devHome = (deps: HttpDeps): EventHandler => {
  const c = deps.ctx.config;
  const mail = c.smtpUrl ? `SMTP relay ${maskUrlPassword(c.smtpUrl)}` : c.mailCatcher ? `built-in catcher on ${c.mailCatcherHost}:${c.mailCatcherPort}` : "nowhere (no SMTP relay, catcher off): mail stays queued";
  // On the public URL, where the mail links point: a session made on 127.0.0.1 is not sent to localhost.
  const base = c.publicUrl + c.websiteBasePath;
  // The rooms' pages the account page links to (Room.accountPage), on the public URL as well.
  const roomLinks = accountLinkPlaces.flatMap((place) => accountLinksAt(deps.tables.accountPage, place, c, deps.ctx.words.of("en")))
    .map((l) => `    <li><a href="${e(c.publicUrl + l.path)}">${e(l.label)}</a></li>\n`).join("");
  // Where a sign-in lands by default: who is signed in here (dev-home.js asks GET /account/me).
  const who = c.hostedPages
    ? `<div id="signed-in" class="signed-in" hidden>
  <p>Signed in as <strong id="signed-in-email"></strong> (user <span class="token" id="signed-in-id"></span>).</p>
  <ul>
    <li><a href="${e(base)}/account">My account</a></li>
${roomLinks}    <li><a href="${e(base)}/sign-out">Sign out</a></li>
  </ul>
</div>
<p id="signed-out" hidden>Nobody is signed in in this browser. <a href="${e(base)}">Sign in</a></p>`
    : "";
  const pages = c.hostedPages
    ? `<ul>
  <li><a href="${e(base)}">Sign in</a> · <a href="${e(base)}?show=signup">Sign up</a> · <a href="${e(base)}/sign-out">Sign out</a></li>
  <li><a href="${e(base)}/reset-password">Reset a password</a></li>
</ul>`
    : `<p>Hosted pages are off: the mail links point at ${e(c.websiteUrl + base)}. Start with <code>--hosted-pages</code> to serve them here.</p>`;
  return defineEventHandler(async (event) => {
    setPageHeaders(event, c);
    const events = await listRecentEvents(deps.ctx, 20);
    const rows = events.map((x) => `<tr><td class="nowrap">${e(x.at.replace("T", " ").slice(0, 19))}</td><td class="nowrap">${e(x.type)}</td><td class="token nowrap">${e(x.userId ?? "")}</td><td class="token">${e(x.data ?? "")}</td></tr>`).join("\n");
    return renderPage(c, {
      title: "Development",
      assets: "/_dev/assets",
      wide: true,
      script: c.hostedPages ? "dev-home.js" : undefined,
      data: pageData(c, deps.tables.returnPaths(c)),
      main: `<h1>authsvc is running</h1>
<p class="dev-banner">Development mode: relaxed defaults, tokens in API answers. Never expose this server; use <code>--production</code>.</p>
${who}
<h2>What is running</h2>
<dl class="facts">
  <dt>Mode</dt><dd>${e(c.mode)}</dd>
  <dt>Database</dt><dd>${e(maskUrlPassword(c.database))}</dd>
  <dt>API</dt><dd>${e(c.publicUrl + c.apiBasePath)}</dd>
  <dt>Mail</dt><dd>${e(mail)}</dd>
</dl>
<h2>Pages</h2>
${pages}
<p><a href="/_dev/mail">Development inbox</a>: every caught mail, live, with its link and whether its token still works.</p>
<p><a href="/admin">Admin dashboard</a>: create the first admin with <code>${e(launchCommand())} admins create you@example.com</code>.</p>
<h2>Last events</h2>
${rows ? `<div class="table-wrap" tabindex="0" role="region" aria-label="Last events (scrolls sideways)"><table class="events"><thead><tr><th scope="col">Time (UTC)</th><th scope="col">Event</th><th scope="col">User</th><th scope="col">Data</th></tr></thead><tbody>
${rows}
</tbody></table></div>` : "<p>No events yet.</p>"}`,
    }, deps.tables.assets, deps.ctx.words.of("en"));
  });
};
