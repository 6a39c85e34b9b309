import type { CoreContext } from "../core/context.js";

/**
 * A room's section of the admin dashboard (Room.dashboardSection): its entry in the navigation and
 * its pages. The pages only read (changes go through the room's CLI and admin API, the same core
 * functions); the dashboard checks the admin session, lays a page out under its header and
 * navigation, and turns a refusal of the core (an AuthError) into a 404 or 400 page saying why.
 * A type of the kernel's, like PersonPagePart, so the rooms never import the dashboard (which sits above them).
 */
export interface DashboardSectionPart {
  /** Its path under the dashboard ("reports" would be /admin/reports) and its label in the navigation. */
  path: string;
  label: string;
  /** Its place in the navigation: right after the entry of this path under the dashboard ("users"; "" is the overview). */
  after: string;
  pages: readonly DashboardSectionPage[];
}

/** A page of a room's section: GET /admin/<section path><path>. */
export interface DashboardSectionPage {
  /** After the section's path, in h3 router syntax: "" for the section's own page, "/:id" for one of its things. */
  path: string;
  /** The page's <title> and <h1>. */
  title: string;
  /** The page's body after its <h1> (markup, escaped with the kit), read when the page is. */
  render(ctx: CoreContext, params: Readonly<Record<string, string>>, kit: DashboardSectionKit): Promise<string>;
}

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
}
