import { createError, defineEventHandler, getQuery, getRequestHeader, getRouterParam, type EventHandler } from "h3";
import { clearInbox, listInbox, readInboxMessage } from "../../core/dev-inbox.js";
import { AuthError } from "../../core/errors.js";
import type { HttpDeps } from "../deps.js";
import { setMailFrameHeaders, setPageHeaders } from "./headers.js";
import { renderPage } from "./layout.js";

/** GET /_dev/mail: the development inbox (the list and the open message are drawn by inbox.js). */
export const inboxPage = (deps: HttpDeps): EventHandler => {
  const config = deps.ctx.config;
  const html = renderPage(config, {
    title: "Development inbox",
    assets: "/_dev/assets",
    script: "inbox.js",
    wide: true,
    main: `<h1>Development inbox</h1>
<p class="dev-banner">Mail caught by the built-in catcher (development mode, this machine only). <a href="/">Development home</a></p>
<form class="filters" id="filters" role="search" aria-label="Filter mail">
  <div class="field"><label for="filter-to">Recipient</label><input id="filter-to" type="search" autocomplete="off" spellcheck="false"></div>
  <div class="field"><label for="filter-action">Action</label><select id="filter-action">
    <option value="">All</option>${deps.ctx.mail.actions.map((a) => `<option value="${a.action}">${a.label}</option>`).join("")}
  </select></div>
  <button type="button" class="secondary" id="delete-all">Delete all mail</button>
</form>
<p id="status" class="status" role="status" aria-live="polite"></p>
<p id="form-error" class="error" role="alert"></p>
<div class="inbox">
  <section aria-labelledby="list-title">
    <h2 id="list-title">Messages <span id="count"></span></h2>
    <p id="empty">No mail yet. Mail the server sends appears here as it arrives.</p>
    <ul id="list" class="mail-list"></ul>
  </section>
  <section id="detail" class="detail" aria-labelledby="detail-title" hidden>
    <h2 id="detail-title" tabindex="-1"></h2>
    <dl>
      <dt>To</dt><dd id="d-to"></dd>
      <dt>From</dt><dd id="d-from"></dd>
      <dt>Received</dt><dd id="d-received"></dd>
      <dt>Action</dt><dd id="d-action"></dd>
      <dt>Token or code</dt><dd><span id="d-token" class="token"></span> <span id="d-state" class="badge"></span></dd>
      <dt>Expires</dt><dd id="d-expires"></dd>
    </dl>
    <div class="actions">
      <a id="d-link" class="button" target="_blank" rel="noopener noreferrer">Open the link</a>
      <button type="button" class="secondary" id="d-copy">Copy the token</button>
    </div>
    <h3>Text</h3>
    <pre class="text" id="d-text"></pre>
    <h3>HTML</h3>
    <iframe id="d-html" class="mail-html" sandbox="" title="The mail as HTML"></iframe>
  </section>
</div>`,
  }, deps.tables.assets, deps.ctx.words.of("en"));
  return defineEventHandler((event) => {
    setPageHeaders(event, config, { frames: true });
    return html;
  });
};

/** GET /_dev/mail/messages?to=&action=: newest first, each with its token's state. */
export const inboxMessages = (deps: HttpDeps) => defineEventHandler(async (event) => {
  const q = getQuery(event);
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  return { messages: await listInbox(deps.ctx, { to: text(q.to), action: text(q.action) }) };
});

/** GET /_dev/mail/messages/:id */
export const inboxMessage = (deps: HttpDeps) => defineEventHandler(async (event) => {
  const found = await readInboxMessage(deps.ctx, messageId(event.context.params?.id));
  if (!found) throw new AuthError("NOT_FOUND", "No such message");
  return found.detail;
});

/** GET /_dev/mail/messages/:id/html: the mail's HTML for the sandboxed frame, under its own CSP. */
export const inboxMessageHtml = (deps: HttpDeps) => defineEventHandler(async (event) => {
  const found = await readInboxMessage(deps.ctx, messageId(getRouterParam(event, "id")));
  if (!found) throw new AuthError("NOT_FOUND", "No such message");
  setMailFrameHeaders(event);
  return found.html ?? "<p>(this mail has no HTML part)</p>";
});

/**
 * POST /_dev/mail/delete. The custom header cannot be sent cross-site without a CORS preflight
 * that we never allow, so another site open in the developer's browser cannot empty the inbox.
 */
export const inboxDelete = (deps: HttpDeps) => defineEventHandler(async (event) => {
  if (getRequestHeader(event, "authsvc-dev") !== "1") throw createError({ statusCode: 403, message: "Send the authsvc-dev: 1 header" });
  return { deleted: await clearInbox(deps.ctx) };
});

function messageId(raw: unknown): number {
  const n = typeof raw === "string" && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n)) throw new AuthError("NOT_FOUND", "No such message");
  return n;
}
