import type { H3Event } from "h3";
import type { CoreContext } from "../core/context.js";
import type { DashboardSectionPart } from "../http/dashboard-sections.js";
import type { HttpDeps } from "../http/deps.js";
import { escapeHtml } from "../http/pages/layout.js";

/**
 * The admin dashboard's page kit: what every dashboard page and action is given, what it returns,
 * and the few pieces of markup they all share. Pages are rendered on the server and change state
 * only through POSTed forms (post/redirect/get), so they work with the keyboard, without script,
 * under the pages' strict CSP. The mount (mount.ts) signs the admin in, checks CSRF on every POST,
 * and turns a DashboardResult into the HTTP answer; the rooms under src/dashboard/ only render and act.
 */

/** Where the dashboard lives (the admin API stays at /admin/v1). */
export const DASHBOARD_PATH = "/admin";

/** The admin behind a request (not an app user: admins are accounts of their own). */
export interface AdminIdentity { id: string; email: string }

export interface DashboardRequest {
  event: H3Event;
  deps: HttpDeps;
  ctx: CoreContext;
  admin: AdminIdentity;
  /** This session's CSRF token: every form carries it (`csrfField`); the mount refuses a POST without it. */
  csrf: string;
  /**
   * What core functions record as the source of their events (`admin:<id>`): every admin action is
   * an event naming the admin, through the same core functions as the CLI ("cli") and API ("admin-api").
   */
  source: string;
  /** Route parameters (`:id`). */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The POSTed form (application/x-www-form-urlencoded), already CSRF-checked; empty on GET. */
  form: URLSearchParams;
  /** The message left by the previous action (post/redirect/get), shown once. */
  flash?: Flash;
}

export interface Flash { kind: "ok" | "error"; text: string }

/**
 * A page to show, or where to go after an action (with the message to show there). `toApi`: the
 * redirect is to this server's API (a support session's hand-over link), not to a dashboard page.
 */
export type DashboardResult = { html: string; status?: number } | { redirect: string; flash?: Flash; toApi?: true };

export interface DashboardRoute {
  method: "GET" | "POST";
  /** Absolute path under DASHBOARD_PATH, h3 router syntax (`/admin/users/:id`). */
  path: string;
  handler: (r: DashboardRequest) => Promise<DashboardResult>;
}

/** One entry of the navigation bar. */
export interface DashboardSection { path: string; label: string }

/** The dashboard's own navigation, in order; the rooms' sections (Room.dashboardSection) go where they say. */
const dashboardSections: readonly DashboardSection[] = [
  { path: DASHBOARD_PATH, label: "Overview" },
  { path: `${DASHBOARD_PATH}/users`, label: "Users" },
  { path: `${DASHBOARD_PATH}/outbox`, label: "Mail outbox" },
  { path: `${DASHBOARD_PATH}/keys`, label: "Signing keys" },
  { path: `${DASHBOARD_PATH}/config`, label: "Configuration" },
];

/** The navigation: the dashboard's entries, each room's section right after the entry its `after` names (at the end when none does). */
export function navigation(rooms: readonly DashboardSectionPart[]): DashboardSection[] {
  const all = [...dashboardSections];
  for (const s of rooms) {
    const after = s.after ? `${DASHBOARD_PATH}/${s.after}` : DASHBOARD_PATH;
    const at = all.findIndex((e) => e.path === after);
    all.splice(at < 0 ? all.length : at + 1, 0, { path: `${DASHBOARD_PATH}/${s.path}`, label: s.label });
  }
  return all;
}

export { escapeHtml };

/** The hidden field every dashboard form carries. */
export function csrfField(r: Pick<DashboardRequest, "csrf">): string {
  return `<input type="hidden" name="csrf" value="${escapeHtml(r.csrf)}">`;
}

/**
 * A form with one button that POSTs to `action`. `fields` is extra markup inside the form (already
 * escaped). A `danger` action is styled as such; an action that cannot be undone should ask for a
 * typed confirmation in `fields` and check it on the server, not rely on a script dialog.
 */
export function actionForm(r: Pick<DashboardRequest, "csrf">, o: { action: string; label: string; danger?: boolean; fields?: string; className?: string }): string {
  return `<form method="post" action="${escapeHtml(o.action)}" class="${escapeHtml(o.className ?? "inline")}">${csrfField(r)}${o.fields ?? ""}<button type="submit"${o.danger ? ' class="danger"' : ""}>${escapeHtml(o.label)}</button></form>`;
}

/** A time as UTC ISO text, in a <time> element (the machine value too). Empty for null. */
export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "";
  const iso = new Date(ms).toISOString();
  return `<time datetime="${iso}">${iso.slice(0, 19).replace("T", " ")} UTC</time>`;
}

/** Redirect back with a message (post/redirect/get). */
export function done(to: string, text: string, kind: Flash["kind"] = "ok"): DashboardResult {
  return { redirect: to, flash: { kind, text } };
}
