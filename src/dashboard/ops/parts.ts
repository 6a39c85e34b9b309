import { AuthError } from "../../core/errors.js";
import { escapeHtml, formatTime, type DashboardRequest, type DashboardResult } from "../kit.js";
import { renderDashboardPage } from "../layout.js";

/**
 * Markup and refusals the operations pages share (overview, outbox, keys, configuration), and the
 * rooms' sections through their kit (room-sections.ts).
 */

/** A table in its scrolling box: focusable and named, so a keyboard user can scroll it at 360 px. */
export function tableWrap(label: string, head: string[], rows: string[], empty: string | { html: string }): string {
  if (rows.length === 0) return `<p class="muted">${typeof empty === "string" ? escapeHtml(empty) : empty.html}</p>`;
  const th = head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join("");
  return `<div class="table-wrap" role="region" aria-label="${escapeHtml(label)}" tabindex="0"><table><caption class="sr-only">${escapeHtml(label)}</caption><thead><tr>${th}</tr></thead><tbody>${rows.join("")}</tbody></table></div>`;
}

/** A table row whose first cell heads the row. Cells are already-escaped HTML. */
export function tableRow(cells: string[]): string {
  const [first, ...rest] = cells;
  return `<tr><th scope="row">${first ?? ""}</th>${rest.map((c) => `<td>${c}</td>`).join("")}</tr>`;
}

export type BadgeKind = "ok" | "warn" | "bad" | "";

/** A state as a badge (the word itself carries the meaning; colour only repeats it). */
export function badge(text: string, kind: BadgeKind): string {
  return `<span class="badge${kind ? ` ${kind}` : ""}">${escapeHtml(text)}</span>`;
}

/** A time or a dash. */
export const timeOrDash = (ms: number | null | undefined) => (ms === null || ms === undefined ? "–" : formatTime(ms));

/** A `<select>` with its label; `value` is selected. Options are [value, label]. */
export function selectField(id: string, label: string, options: ReadonlyArray<readonly [string, string]>, value: string | undefined): string {
  const opts = options.map(([v, l]) => `<option value="${escapeHtml(v)}"${v === (value ?? "") ? " selected" : ""}>${escapeHtml(l)}</option>`).join("");
  return `<div class="field"><label for="${escapeHtml(id)}">${escapeHtml(label)}</label><select id="${escapeHtml(id)}" name="${escapeHtml(id)}">${opts}</select></div>`;
}

/**
 * Runs a page's reads; a refusal of the core (bad filter, unknown id) becomes a 400/404 page saying
 * why, never a 500. Anything else is a real failure and goes on up.
 */
export async function pageOrRefusal(r: DashboardRequest, o: { title: string; section: string }, render: () => Promise<string>): Promise<DashboardResult> {
  try {
    return renderDashboardPage(r, { ...o, main: await render() });
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    const status = err.code === "NOT_FOUND" ? 404 : 400;
    return renderDashboardPage(r, { ...o, status, main: `<p class="error" role="alert">${escapeHtml(err.message)}</p><p><a href="${escapeHtml(o.section)}">Back to ${escapeHtml(o.title.toLowerCase())}</a></p>` });
  }
}

/** Runs an action; a refusal of the core comes back to `to` as an error message, nothing changed. */
export async function actionOrRefusal(to: string, act: () => Promise<DashboardResult>): Promise<DashboardResult> {
  try {
    return await act();
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    return { redirect: to, flash: { kind: "error", text: err.message } };
  }
}
