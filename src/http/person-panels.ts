import type { CoreContext } from "../core/context.js";
import type { UserView } from "../core/users.js";

/**
 * A room's part of the admin dashboard's person page (Room.personPage): panels of its own, lines
 * it adds to another room's panel, and the actions their buttons POST. The dashboard loads and
 * lays them out and checks the admin session and CSRF before an action runs; the room only reads,
 * writes markup with the kit it is handed, and acts through the same functions as its CLI and admin
 * API. A type of the kernel's, so the rooms never import the dashboard (which sits above them).
 */
export interface PersonPagePart {
  panels?: readonly PersonPanel[];
  facts?: readonly PersonFact[];
  actions?: readonly PersonAction[];
}

/**
 * Where a room's panel goes on the page, which follows a support call: who they are, their logins
 * and sessions, then "after-sessions" (e.g. the apps acting for them), "before-locks" (e.g. their
 * second factor), the locks on their addresses, "after-locks" (e.g. what to do about a password),
 * and last what happened lately and deleting them.
 */
export type PersonPanelPlace = "after-sessions" | "before-locks" | "after-locks";

/** A panel of the person page. Panels of one place keep the rooms' order. */
export interface PersonPanel<T = unknown> {
  /** The section's id: its heading is `${id}-h`; other rooms' facts name it. */
  id: string;
  title: string;
  place: PersonPanelPlace;
  /** What the panel shows, read when the page is; nothing secret. */
  load(ctx: CoreContext, person: UserView): Promise<T>;
  /** The panel's body (after its heading); "" leaves the panel out. */
  render(data: T, kit: PersonPanelKit, person: UserView): string;
}

/** The id a fact names to join the facts at the top of the person page; no panel may take it. */
export const PERSON_FACTS = "person";

/** A line a room adds to another room's panel (kit.facts puts it after the panel's own lines). */
export interface PersonFact<T = unknown> {
  /**
   * The id of the panel it goes in, or PERSON_FACTS for the facts at the top of the page (who they
   * are: id, email, when they joined); without that panel it is not shown.
   */
  panel: string;
  /** The term, as text. */
  term: string;
  load(ctx: CoreContext, person: UserView): Promise<T>;
  /** The description's markup. */
  render(data: T, kit: PersonPanelKit): string;
}

/** A POST under the person's page, e.g. path "mfa/reset" is POST /admin/users/:id/mfa/reset. */
export interface PersonAction {
  path: string;
  /** `source` names the admin in the events it records (`admin:<id>`). */
  run(ctx: CoreContext, person: UserView, input: { form: URLSearchParams; source: string; admin: ActingAdmin }): Promise<PersonActionResult>;
}

/** The admin behind an action, as the dashboard knows them, and the check of their own second factor. */
export interface ActingAdmin {
  id: string;
  email: string;
  /** Where the admin's request came from (what a session the action opens records). */
  client(): { ip?: string; userAgent?: string };
  /**
   * Checks a code of the admin's own second factor (their TOTP), once: "ok" (and the code is used
   * up), "wrong" (or used before; counted like a failed sign-in), "none" (the admin has none).
   */
  confirmSecondFactor(code: string): Promise<"ok" | "wrong" | "none">;
}

/**
 * What happened, shown once on the person's page (or on the search, when the person is `gone`).
 * `redirect`: go there instead (an absolute URL: a support session's hand-over link), the message unshown.
 */
export interface PersonActionResult { kind: "ok" | "error"; text: string; gone?: boolean; redirect?: string }

/** The dashboard's markup for a room's panel, so panels look like the rest of the page. */
export interface PersonPanelKit {
  escape(text: string): string;
  /** The hidden field every form carries (the session's CSRF token). */
  csrfField: string;
  /** The URL an action of this person's page answers at (`path` as in PersonAction). */
  action(path: string): string;
  /** A one-button form POSTing to action(path); `whom` (what it acts on) is read only by screen readers. */
  button(path: string, label: string, whom: string, o?: { danger?: boolean; fields?: Readonly<Record<string, string>> }): string;
  badge(text: string, tone: "ok" | "warn" | "bad"): string;
  /** The panel's facts (term as text, description as markup) as a list, then the lines other rooms add to it. */
  facts(rows: ReadonlyArray<readonly [term: string, description: string]>): string;
  /** A table: a caption for screen readers, the column headings (markup), and rows (`<tr>` markup). */
  table(caption: string, head: readonly string[], rows: readonly string[]): string;
  time(ms: number | null | undefined): string;
}
