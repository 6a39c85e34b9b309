import { escapeHtml, csrfField, formatTime, type DashboardRequest, type DashboardResult } from "../kit.js";
import { renderDashboardPage } from "../layout.js";
import { personPath, USERS_PATH } from "./list-page.js";
import { loadPersonRecord, type PersonRecord } from "./person-record.js";
import { renderFacts, renderLocks, renderMethods, renderRoomPanels, renderSessions } from "./person-sections.js";
import type { PersonPagePart } from "../../http/person-panels.js";

/**
 * GET /admin/users/:id: a person (by their id or any login method's), laid out in the order a
 * support call goes: who they are and how they sign in, their sessions, second factor and locks,
 * then what to do about the password, what happened lately, and at the end deleting them (the
 * rooms' panels, Room.personPage, go before and after the locks). An id that names no one is a
 * 404 page with a way back to the search.
 */
export const showPerson = (rooms: Required<PersonPagePart>) => async (r: DashboardRequest): Promise<DashboardResult> => {
  const p = await loadPersonRecord(r.ctx, r.params.id ?? "", rooms);
  if (!p) {
    return renderDashboardPage(r, { title: "No such user", section: USERS_PATH, status: 404, main: `<p>No user has the id “${escapeHtml(r.params.id ?? "")}”. It may have been deleted.</p><p><a href="${USERS_PATH}">Search users</a></p>` });
  }
  const main = [renderFacts(r, p), renderMethods(r, p), renderSessions(r, p), renderRoomPanels(r, p, "after-sessions"), renderRoomPanels(r, p, "before-locks"), renderLocks(r, p), renderRoomPanels(r, p, "after-locks"), renderActivity(p), renderDelete(r, p)].filter(Boolean).join("\n");
  return renderDashboardPage(r, { title: p.user.email || p.user.id, section: USERS_PATH, main: `<p><a href="${USERS_PATH}">Back to users</a></p>\n${main}` });
};

/** Where an event came from, without its data (which can hold addresses of others, never secrets, but is noisy). */
function eventSource(data: string | null): string {
  if (!data) return "";
  try {
    const s = (JSON.parse(data) as { source?: unknown }).source;
    return typeof s === "string" ? s : "";
  } catch {
    return "";
  }
}

function renderActivity(p: PersonRecord): string {
  const events = p.events.length
    ? `<div class="table-wrap"><table><caption class="sr-only">Recent events, newest first</caption><thead><tr><th scope="col">Event</th><th scope="col">When</th><th scope="col">By</th></tr></thead><tbody>
${p.events.map((e) => `<tr><th scope="row">${escapeHtml(e.type)}</th><td>${formatTime(Number(e.at))}</td><td>${escapeHtml(eventSource(e.data))}</td></tr>`).join("\n")}
</tbody></table></div>`
    : "<p>No events.</p>";
  const mails = p.mails.length
    ? `<div class="table-wrap"><table><caption class="sr-only">Recent mails, newest first</caption><thead><tr><th scope="col">Mail</th><th scope="col">To</th><th scope="col">State</th><th scope="col">Queued</th><th scope="col">Sent</th></tr></thead><tbody>
${p.mails.map((m) => `<tr><th scope="row">${escapeHtml(m.kind)}</th><td>${escapeHtml(m.to_address)}</td><td><span class="badge ${m.status === "sent" ? "ok" : m.status === "failed" ? "bad" : "warn"}">${escapeHtml(m.status)}</span></td><td>${formatTime(Number(m.created_at))}</td><td>${formatTime(m.sent_at === null ? null : Number(m.sent_at))}</td></tr>`).join("\n")}
</tbody></table></div>`
    : "<p>No mail.</p>";
  return `<section class="panel" aria-labelledby="events-h"><h2 id="events-h">Recent events</h2>\n${events}\n</section>\n<section class="panel" aria-labelledby="mails-h"><h2 id="mails-h">Recent mails</h2>\n${mails}\n</section>`;
}

function renderDelete(r: DashboardRequest, p: PersonRecord): string {
  const confirmWith = p.user.email || p.user.id;
  return `<section class="panel" aria-labelledby="delete-h">
<h2 id="delete-h">Delete this user</h2>
<p>Deletes the person, every login method, session and token. This cannot be undone.</p>
<form method="post" action="${personPath(p.user.id)}/delete" class="stack">${csrfField(r)}
<label for="delete-confirm">Type <strong>${escapeHtml(confirmWith)}</strong> to confirm</label>
<input id="delete-confirm" name="confirm" type="text" required autocomplete="off" spellcheck="false">
<button type="submit" class="danger">Delete ${escapeHtml(confirmWith)}</button>
</form>
</section>`;
}
