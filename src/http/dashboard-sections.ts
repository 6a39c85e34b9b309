import type { CoreContext } from "../core/context.js";

/**
 * A room's section of the admin dashboard (Room.dashboardSection): its entry in the navigation, its
 * pages, the actions their forms POST, its figures on the overview and the events whose subject it
 * shows. The dashboard checks the admin session (and, before an action runs, CSRF), lays a page out
 * under its header and navigation, turns a refusal of the core (an AuthError) into a 404 or 400
 * page saying why, or after an action into an error message on the section's page, nothing
 * changed. The room reads, writes markup with the kit it is handed, and acts through the same core
 * functions as its CLI and admin API. A type of the kernel's, like PersonPagePart, so the rooms
 * never import the dashboard (which sits above them).
 */
export interface DashboardSectionPart {
  /** Its path under the dashboard ("reports" would be /admin/reports) and its label in the navigation. */
  path: string;
  label: string;
  /** Its place in the navigation: right after the entry of this path under the dashboard ("users"; "" is the overview). */
  after: string;
  pages: readonly DashboardSectionPage[];
  /** The POSTs its pages' forms call (kit.button). */
  actions?: readonly DashboardSectionAction[];
  /** Its figures on the overview, after the kernel's (and earlier rooms'), read when the overview is. */
  stats?(ctx: CoreContext): Promise<readonly DashboardStat[]>;
  /**
   * The prefixes of the event types whose subject its pages show ("report."): the overview's recent
   * admin actions link such an event to the section.
   */
  auditPrefixes?: readonly string[];
}

/** A page of a room's section: GET /admin/<section path><path>. */
export interface DashboardSectionPage {
  /** After the section's path, in h3 router syntax: "" for the section's own page, "/:id" for one of its things. */
  path: string;
  /** The page's <title> and <h1>. */
  title: string;
  /** The page's body after its <h1> (markup, escaped with the kit), read when the page is; `query` is the URL's. */
  render(ctx: CoreContext, params: Readonly<Record<string, string>>, kit: DashboardSectionKit, query: URLSearchParams): Promise<string>;
}

/**
 * A POST under the section: path "/:id/enable" is POST /admin/<section path>/:id/enable. It answers
 * with a redirect to the section's own page and a message shown there once (post/redirect/get).
 */
export interface DashboardSectionAction {
  path: string;
  /** `source` names the admin in the events it records (`admin:<id>`); `form` is the POSTed form, CSRF-checked. */
  run(ctx: CoreContext, params: Readonly<Record<string, string>>, input: { form: URLSearchParams; source: string }): Promise<DashboardActionResult>;
}

/**
 * What an action did, as the message the section's page shows once; or, with `page`, a page of
 * its own answered to the POST itself (a secret shown once, which must never travel in the
 * message's cookie): its title and markup, with a way back.
 */
export interface DashboardActionResult { kind: "ok" | "error"; text: string; page?: { title: string; main: string } }

/** One figure of the overview: a count, what it counts, and where to look closer (a path under the dashboard, as kit.href takes). */
export interface DashboardStat { count: number; label: string; href?: string }

/** The dashboard's markup for a room's pages, so they look like the rest of the dashboard. */
export interface DashboardSectionKit {
  escape(text: string): string;
  /** The URL of a dashboard page: a path under the dashboard ("users/<id>"). */
  href(path: string): string;
  /** A table in its scrolling box, named `label`; `empty` (text, or markup as `{ html }`) when there are no rows. */
  table(label: string, head: string[], rows: string[], empty: string | { html: string }): string;
  /** A table row whose first cell heads the row; cells are markup. */
  row(cells: string[]): string;
  /** A time as UTC text in a <time> element; "" for none. */
  time(ms: number | null | undefined): string;
  /**
   * A one-button form POSTing to a dashboard path (as href takes it: one of the section's actions),
   * with the session's CSRF token; `whom` (what it acts on) is read only by screen readers.
   */
  button(path: string, label: string, whom: string, o?: { danger?: boolean }): string;
  /** A form POSTing to a dashboard path (one of the section's actions) with the CSRF token, its fields (markup) before its button. */
  form(path: string, label: string, fields: string): string;
  /** A state as a badge (the word carries the meaning; the colour only repeats it). */
  badge(text: string, tone: "ok" | "warn" | "bad" | ""): string;
  /** A labelled `<select>` named `id`; options are [value, label], `value` is selected. */
  select(id: string, label: string, options: ReadonlyArray<readonly [string, string]>, value: string | undefined): string;
}
