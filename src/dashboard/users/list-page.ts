import { AuthError } from "../../core/errors.js";
import { searchPeople, type PeopleSearchPage } from "../../core/user-search.js";
import { loginName, type LoginKind } from "../../core/logins.js";
import type { UserView } from "../../core/users.js";
import { DASHBOARD_PATH, escapeHtml, formatTime, type DashboardRequest, type DashboardResult } from "../kit.js";
import { renderDashboardPage } from "../layout.js";

export const USERS_PATH = `${DASHBOARD_PATH}/users`;

/** The path of a person's page. */
export function personPath(id: string): string {
  return `${USERS_PATH}/${encodeURIComponent(id)}`;
}

/** The login methods of a person in a few words: each kind's short name once (loginName, in the rooms' words). */
export function describeMethods(kinds: readonly LoginKind[], u: UserView): string {
  const names = u.loginMethods.map((m) => loginName(kinds, m));
  return names.length ? [...new Set(names)].join(", ") : "none";
}

/**
 * GET /admin/users?q=&after=|before=: one box (email prefix or user id) and a page of people in
 * email order, with next / previous links carrying keyset cursors (searchPeople). A bad cursor or
 * an over-long query is a 400 page with the reason, never a 500.
 */
export async function showUsers(r: DashboardRequest): Promise<DashboardResult> {
  const q = r.query.get("q") ?? "";
  let page: PeopleSearchPage;
  try {
    page = await searchPeople(r.ctx, { query: q, after: r.query.get("after") ?? undefined, before: r.query.get("before") ?? undefined });
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    return renderDashboardPage(r, { title: "Users", section: USERS_PATH, status: 400, main: `${searchForm(q)}<p class="error" role="alert">${escapeHtml(err.message)}</p>` });
  }
  return renderDashboardPage(r, { title: "Users", section: USERS_PATH, main: `${searchForm(q)}\n${resultsPanel(r.ctx.logins, q, page)}` });
}

function searchForm(q: string): string {
  return `<form method="get" action="${USERS_PATH}" class="search" role="search">
<label for="user-q">Email prefix or user id</label>
<input id="user-q" name="q" type="search" value="${escapeHtml(q)}" autocomplete="off" spellcheck="false" maxlength="320">
<button type="submit">Search</button>
</form>`;
}

function resultsPanel(kinds: readonly LoginKind[], q: string, page: PeopleSearchPage): string {
  const what = q.trim() ? (page.matchedBy === "id" ? `The person with id ${q.trim()}` : `People whose email starts with “${q.trim().toLowerCase()}”`) : "Everyone, by email";
  if (page.users.length === 0) return `<section class="panel" aria-labelledby="results-h"><h2 id="results-h">Results</h2><p>${escapeHtml(what)}: no one found.</p></section>`;
  const rows = page.users.map((u) => `<tr>
<th scope="row"><a href="${escapeHtml(personPath(u.id))}">${escapeHtml(u.email || "(no email)")}</a></th>
<td class="mono">${escapeHtml(u.id)}</td>
<td>${escapeHtml(describeMethods(kinds, u))}</td>
<td>${u.verified ? '<span class="badge ok">verified</span>' : '<span class="badge warn">unverified</span>'}</td>
<td>${formatTime(u.timeJoined)}</td>
</tr>`).join("\n");
  const link = (key: "after" | "before", cursor: string | null, label: string, rel: string) =>
    cursor ? `<a href="${escapeHtml(`${USERS_PATH}?${new URLSearchParams({ q, [key]: cursor })}`)}" rel="${rel}">${label}</a>` : "";
  const pager = [link("before", page.previous, "Previous page", "prev"), link("after", page.next, "Next page", "next")].filter(Boolean).join(" ");
  return `<section class="panel" aria-labelledby="results-h">
<h2 id="results-h">Results</h2>
<p class="muted">${escapeHtml(what)}.</p>
<div class="table-wrap"><table>
<caption class="sr-only">People found</caption>
<thead><tr><th scope="col">Email</th><th scope="col">User id</th><th scope="col">Login methods</th><th scope="col">Email verified</th><th scope="col">Joined</th></tr></thead>
<tbody>
${rows}
</tbody></table></div>
${pager ? `<nav class="pager" aria-label="Result pages">${pager}</nav>` : ""}
</section>`;
}
