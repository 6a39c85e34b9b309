import { loginName } from "../../core/logins.js";
import { csrfField, escapeHtml, formatTime, type DashboardRequest } from "../kit.js";
import { personPath } from "./list-page.js";
import type { PersonRecord } from "./person-record.js";
import { PERSON_FACTS, type PersonPanelKit, type PersonPanelPlace } from "../../http/person-panels.js";

/**
 * The panels of the person page, one function each. Every button names what it does and to whom
 * (visually short, the rest in .sr-only text), every table has scoped headers, and nothing secret
 * is ever rendered: session handles are public ids, not tokens.
 */

type R = Pick<DashboardRequest, "csrf" | "ctx">;

const sr = (text: string) => `<span class="sr-only"> ${escapeHtml(text)}</span>`;
/** A one-button form whose accessible name says whom it acts on (the visible label stays short). */
function button(r: R, action: string, label: string, whom: string, o: { danger?: boolean; fields?: string } = {}): string {
  return `<form method="post" action="${escapeHtml(action)}" class="inline">${csrfField(r)}${o.fields ?? ""}<button type="submit"${o.danger ? ' class="danger"' : ""}>${escapeHtml(label)}${sr(whom)}</button></form>`;
}
const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
const badge = (ok: boolean, yes: string, no: string, bad = false) => `<span class="badge ${ok ? "ok" : bad ? "bad" : "warn"}">${ok ? yes : no}</span>`;
const short = (id: string) => (id.length > 12 ? `${id.slice(0, 8)}…` : id);
const panel = (id: string, title: string, body: string) => `<section class="panel" aria-labelledby="${id}-h">\n<h2 id="${id}-h">${title}</h2>\n${body}\n</section>`;
function table(caption: string, head: readonly string[], rows: readonly string[]): string {
  return `<div class="table-wrap"><table>\n<caption class="sr-only">${escapeHtml(caption)}</caption>\n<thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join("")}</tr></thead>\n<tbody>\n${rows.join("\n")}\n</tbody></table></div>`;
}

/** Who they are, then the lines the rooms add to these facts (Room.personPage facts naming PERSON_FACTS, e.g. their roles). */
export function renderFacts(r: R, p: PersonRecord): string {
  const u = p.user;
  const added = addedFacts(p, PERSON_FACTS, roomKit(r, p, PERSON_FACTS)).map(([term, d]) => `\n<dt>${escapeHtml(term)}</dt><dd>${d}</dd>`).join("");
  return `<dl class="facts">
<dt>User id</dt><dd class="mono">${escapeHtml(u.id)}</dd>
<dt>Email</dt><dd>${escapeHtml(u.email)} ${badge(u.verified, "verified", "unverified")}</dd>
<dt>Joined</dt><dd>${formatTime(u.timeJoined)}</dd>${added}
</dl>`;
}

export function renderMethods(r: R, p: PersonRecord): string {
  const base = personPath(p.user.id);
  const linked = p.memberIds.length > 1;
  const rows = p.user.loginMethods.map((m) => {
    const kind = escapeHtml(loginName(r.ctx.logins, m, { label: true }));
    const whom = `${m.email} (${r.ctx.logins.find((k) => k.recipeId === m.recipeId)?.names.label ?? m.recipeId}, ${m.recipeUserId})`;
    const verify = button(r, `${base}/verified`, m.verified ? "Mark unverified" : "Mark verified", whom, { fields: hidden("recipeUserId", m.recipeUserId) + hidden("verified", m.verified ? "0" : "1") });
    const unlink = linked ? button(r, `${base}/unlink`, "Unlink", whom, { fields: hidden("recipeUserId", m.recipeUserId) }) : "";
    return `<tr><th scope="row">${kind}</th><td>${escapeHtml(m.email)}</td><td>${badge(m.verified, "verified", "unverified")}</td><td class="mono">${escapeHtml(m.recipeUserId)}</td><td>${formatTime(m.timeJoined)}</td><td class="actions">${verify}${unlink}</td></tr>`;
  });
  const body = rows.length ? table("Login methods", ["Method", "Email", "Verified", "Login id", "Added", "Actions"], rows) : "<p>No login method: this person cannot sign in.</p>";
  const link = `<form method="post" action="${base}/link" class="stack">${csrfField(r)}
<label for="link-other">Link another user (their user id or email)</label>
<input id="link-other" name="other" type="text" required autocomplete="off" spellcheck="false" maxlength="320">
<button type="submit">Link to ${escapeHtml(p.user.email || p.user.id)}</button></form>`;
  return panel("methods", "Login methods", `${body}\n${link}`);
}

export function renderSessions(r: R, p: PersonRecord): string {
  const base = personPath(p.user.id);
  if (p.sessions.length === 0) return panel("sessions", "Sessions", "<p>No live session.</p>");
  const rows = p.sessions.map((s) => `<tr><th scope="row"><span class="mono">${escapeHtml(short(s.handle))}</span>${s.supportBy ? ` <span class="badge warn">support session by ${escapeHtml(s.supportBy)}</span>` : ""}</th><td>${formatTime(s.createdAt)}</td><td>${formatTime(s.lastRefreshedAt) || '<span class="muted">never</span>'}</td><td>${formatTime(s.expiresAt)}</td><td>${button(r, `${base}/sessions/revoke`, "Revoke", `session ${short(s.handle)}`, { fields: hidden("handle", s.handle) })}</td></tr>`);
  return panel("sessions", "Sessions", `${table("Live sessions", ["Session", "Started", "Last refreshed", "Expires", "Action"], rows)}\n<div class="actions">${button(r, `${base}/sessions/revoke-all`, "Revoke all sessions", `of ${p.user.email}`, { danger: true })}</div>`);
}

/** The lines the rooms add to panel `id` (Room.personPage facts), as term and description markup. */
function addedFacts(p: PersonRecord, id: string, kit: PersonPanelKit): Array<readonly [string, string]> {
  return p.facts.filter((f) => f.part.panel === id).map(({ part, data }) => [part.term, part.render(data, kit)] as const);
}

/** This page's markup for a room's part of panel `id`: its buttons act on this person, its facts end with the lines other rooms add. */
function roomKit(r: R, p: PersonRecord, id: string): PersonPanelKit {
  const base = personPath(p.user.id);
  const action = (path: string) => `${base}/${path}`;
  const kit: PersonPanelKit = {
    escape: escapeHtml,
    csrfField: csrfField(r),
    action,
    button: (path, label, whom, o = {}) => button(r, action(path), label, whom, { danger: o.danger, fields: Object.entries(o.fields ?? {}).map(([n, v]) => hidden(n, v)).join("") }),
    badge: (text, tone) => `<span class="badge ${tone}">${escapeHtml(text)}</span>`,
    facts: (rows) => `<dl class="facts">\n${[...rows, ...addedFacts(p, id, kit)].map(([term, d]) => `<dt>${escapeHtml(term)}</dt><dd>${d}</dd>`).join("\n")}\n</dl>`,
    table,
    time: formatTime,
  };
  return kit;
}

/** The rooms' panels of one place (Room.personPage), each with its kit: this page's markup and the lines other rooms add to it. */
export function renderRoomPanels(r: R, p: PersonRecord, place: PersonPanelPlace): string {
  return p.panels.filter(({ part }) => part.place === place).map(({ part, data }) => {
    const body = part.render(data, roomKit(r, p, part.id), p.user);
    return body ? panel(part.id, escapeHtml(part.title), body) : "";
  }).filter(Boolean).join("\n");
}

export function renderLocks(r: R, p: PersonRecord): string {
  if (p.locks.length === 0) return panel("locks", "Locks", "<p>No rate limit is counting against their addresses.</p>");
  const rows = p.locks.map((l) => `<tr><th scope="row">${escapeHtml(l.bucket)}</th><td>${escapeHtml(l.key)}</td><td>${badge(!l.limited, "counting", escapeHtml(l.state), l.state === "locked")}</td><td>${l.count}${l.limit !== undefined ? ` of ${l.limit}` : ""}</td><td>${formatTime(l.until)}</td></tr>`);
  const keys = [...new Set(p.locks.map((l) => l.key))];
  const clear = keys.map((k) => button(r, `${personPath(p.user.id)}/locks/clear`, "Clear", `limits on ${k}`, { fields: hidden("email", k) })).join("");
  return panel("locks", "Locks", `${table("Rate limits on their addresses", ["Bucket", "Address", "State", "Count", "Until"], rows)}\n<div class="actions">${clear}</div>`);
}
