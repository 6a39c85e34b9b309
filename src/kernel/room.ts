import type { EventHandler } from "h3";
import type { SettingsBlock, SettingsCheck } from "../config/engine.js";
import type { Config } from "../config/types.js";
import type { BackgroundWork } from "../core/background.js";
import type { ClaimProvider, Factor } from "../core/claims.js";
import type { CommandSpec, UserCreationSpec } from "../core/commands.js";
import type { CoreContext, RoomState } from "../core/context.js";
import type { AccountOperations } from "../core/account-operations.js";
import type { Memberships } from "../core/memberships.js";
import type { OfferKind } from "./offers.js";
import type { ImportPart } from "../core/import-parts.js";
import type { LoginKind, MergePerson } from "../core/logins.js";
import type { PersonDeletion } from "../core/person-deletion.js";
import type { PurgeRule } from "../core/purge.js";
import type { WayIn } from "../core/ways-in.js";
import type { MailBlock } from "../mail/kinds.js";
import type { AdminRoute, AdminUserCreator } from "../http/admin/route.js";
import type { DashboardSectionPart } from "../http/dashboard-sections.js";
import type { HttpDeps } from "../http/deps.js";
import type { DescribedPart, OpenApiArea } from "../http/openapi/types.js";
import type { AccountPagePart } from "../http/pages/account-parts.js";
import type { PageRoute } from "../http/pages/route.js";
import type { SignInPart } from "../http/pages/sign-in-parts.js";
import type { PersonPagePart } from "../http/person-panels.js";
import type { Route } from "../http/route.js";
import type { PageSources } from "../http/pages/headers.js";
import type { PasswordCheck } from "../core/passwords.js";
import type { PersonGate } from "../core/person-gates.js";
import type { SignInPolicy } from "../core/login-policy.js";
import type { SessionOpened } from "../core/session-opened.js";
import type { EventHook } from "../store/events.js";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import type { Catalogue } from "../words/catalogue.js";

/**
 * What a room (a sign-in method or a feature) may declare, on one screen: a name, then groups by
 * concern, every field optional. The kernel loops over the list src/rooms.ts gives it and never
 * names a room (the shape of core/claims.ts, ClaimProvider, at the scale of a whole room; the
 * models are better-auth's plugin type and Kratos' strategies, which implement the same small
 * interfaces). Each group is described below; docs/architecture.md says what each field does.
 */
export interface Room extends RoomSettings, RoomContext, RoomApi, RoomPages, RoomDashboard, RoomPeople, RoomWaysIn, RoomMail, RoomEvents, RoomCommands, RoomWords {
  /** Its name: unique in the list. */
  id: string;
}

/** A sign-in method (a first factor): a room that must say what its logins are and how it is offered. */
export interface SignInMethod extends Room {
  factors: readonly Factor[];
  logins: LoginKind;
  routes: readonly Route[];
  describe(ctx: CoreContext): { answer: Record<string, unknown>; firstFactors: readonly string[] };
  describeSchema: DescribedPart;
}

/** Settings: its rows of the one table (config.ts) and the words it lends the kernel's. */
export interface RoomSettings {
  /** Its rows, placed in the one table beside a named row, and the checks that span them. */
  settings?: readonly SettingsBlock[];
  settingsChecks?: readonly SettingsCheck[];
  /** Its words in the kernel's settings' descriptions (the name `--mfa` gives its factor, what `--limit-mail-ip` counts). */
  settingWords?: Readonly<Partial<Record<keyof Config, string>>>;
}

/** State: what it adds to the core context, built once at start (core/context.ts, core/claims.ts, core/mfa.ts). */
export interface RoomContext {
  /** Its state in the context (the provider registry, the relying party); a bad setting throws ConfigError. */
  init?(config: Readonly<Config>): Partial<RoomState>;
  /** Its claims in access tokens (checked for clashes once). */
  claims?(config: Readonly<Config>): readonly ClaimProvider[];
  /** The factors it provides, first or second, under their SDK factor ids. */
  factors?: readonly Factor[];
  /** Its check of every new password, after the kernel's policy (core/passwords.ts PasswordCheck). */
  passwordCheck?(config: Readonly<Config>, with_: { logger: Logger; clock: Clock }): PasswordCheck | undefined;
  /** Its gate that may shut a person out (a ban): asked at every sign-in and every use of a session (core/person-gates.ts). */
  personGate?: PersonGate;
  /** Its policy that may refuse a way of signing in for an address (SSO required): asked whenever a session opens (core/login-policy.ts). */
  signInPolicy?: SignInPolicy;
}

/** HTTP: its routes (each with its guard, http/guard.ts), admin routes, OpenAPI areas, GET /loginmethods, mounts. */
export interface RoomApi {
  /** Its slice of the API's route table (under the API base path unless `root`). */
  routes?: readonly Route[];
  /** Its routes under /admin/v1, behind the admin key. */
  adminRoutes?: readonly AdminRoute[];
  /** How POST /admin/v1/users creates a user of its kind. */
  adminUserCreator?: AdminUserCreator;
  /** Its area of the public OpenAPI document (given every room's part of /loginmethods), and of the admin API's. */
  openapi?: OpenApiArea | ((loginMethods: readonly DescribedPart[]) => OpenApiArea);
  adminOpenapi?: OpenApiArea;
  /** Its part of GET /loginmethods: the answer's field(s) and the first factors it offers now; and that part's schema. */
  describe?(ctx: CoreContext): { answer: Record<string, unknown>; firstFactors: readonly string[] };
  describeSchema?: DescribedPart;
  /** A handler mounted before CORS (the dashboard under /admin), called only at and under `mountPath`. */
  mount?(deps: HttpDeps): EventHandler;
  mountPath?: string | readonly string[];
  /**
   * Its guard around the API's routes that declare something it checks (http/route.ts): a `role` in
   * the scope it owns (organizations), a `challenge` (the bot check). Given the route and its
   * handler, the handler to mount instead (after the kernel's session guard, http/guard.ts, and
   * inside the route's per-IP limits, so a refused request still counts), or undefined to leave it.
   */
  routeGuard?(deps: HttpDeps, route: Route, handler: EventHandler): EventHandler | undefined;
  /** Request headers of its own that frontends on other origins may send (CORS preflights allow them). */
  requestHeaders?(config: Readonly<Config>): readonly string[];
}

/** Hosted pages: its pages, their files and styles, and its parts of the kernel's sign-in and account pages. */
export interface RoomPages {
  /** Its hosted pages for this configuration (absolute paths). */
  pages?(config: Readonly<Config>): PageRoute[];
  /** The static files its pages load (name → text), served beside the kernel's under /_assets. */
  assets?: Readonly<Record<string, string>>;
  /** The style rules of its pages' own classes, added after the kernel's to the one stylesheet. */
  styles?: string;
  /** Paths of its own (absolute, a trailing * for a prefix) a hosted sign-in may return to. */
  returnPaths?(config: Readonly<Config>): readonly string[];
  /** Its part of the hosted sign-in page (http/pages/sign-in-parts.ts) and of "My account" (http/pages/account-parts.ts). */
  signIn?: SignInPart;
  accountPage?: AccountPagePart;
  /** Origins the hosted pages may load from for it (a third-party widget's script, frames, styles, connections), added to their CSP. */
  pageSources?(config: Readonly<Config>): PageSources;
  /**
   * A module every hosted page's API calls pass through (one of its assets; api.js imports it and
   * calls its `requestHook`), and the data-* attributes its script reads, for this configuration
   * (undefined: none this time), given the assembled route table.
   */
  requestHook?(config: Readonly<Config>, routes: readonly Route[]): { script: string; data?: Readonly<Record<string, string>> } | undefined;
}

/** The admin dashboard: its lines on the person page and its own section (http/person-panels.ts, dashboard-sections.ts). */
export interface RoomDashboard {
  personPage?: PersonPagePart;
  dashboardSection?: DashboardSectionPart;
}

/** People and their rows: its logins, imports, joins, deletions and purges (core/logins.ts, import-parts.ts, person-*.ts, purge.ts). */
export interface RoomPeople {
  /** A sign-in method's logins: how it lists a person's logins of its kind. */
  logins?: LoginKind;
  /** Its part of a `users import` record and the rows it writes. */
  importer?: ImportPart;
  /** How it moves the rows a person owns when two people are joined. */
  mergePerson?: MergePerson;
  /** What it says before a person is deleted: a refusal, and what it removes with them. */
  personDeletion?: PersonDeletion;
  /** Its rows no request can use any more (expired codes, challenges). */
  purge?: readonly PurgeRule[];
  /**
   * What other rooms may do to accounts of its kind (core/account-operations.ts): a sign-in method
   * offers password accounts, provider identities or address-only people; one room per kind.
   */
  accounts?: AccountOperations;
  /** Organizations and their members as other rooms need them (core/memberships.ts); one room offers them. */
  memberships?: Memberships;
  /**
   * What it reaches through the context (Room.accounts' kinds, "memberships") with this
   * configuration (nothing while a setting leaves it off): the start is refused, naming what is
   * missing, when no room offers one (kernel/offers.ts).
   */
  needs?(config: Readonly<Config>): readonly OfferKind[];
}

/**
 * Ways in: whatever it holds that lets someone act as a person (sessions, OAuth grants, later API
 * keys and support sessions), with how to list and end them for a person, so every security event
 * ends them all (core/ways-in.ts: endWaysIn, the one function every event calls).
 */
export interface RoomWaysIn {
  /** Its ways in: an id, their names, how to list a person's live ones and end them in the event's transaction. */
  waysIn?: readonly WayIn[];
}

/** Mail: the kinds it sends, with their templates, file stems and actions (mail/kinds.ts). */
export interface RoomMail {
  mail?: MailBlock;
  /** Options it adds to every SMTP transport (nodemailer's, e.g. `dkim`), read once at start (mail/transport.ts). */
  smtpOptions?(config: Readonly<Config>): Readonly<Record<string, unknown>> | undefined;
}

/** Events and background work: its webhook events and the work its commits queue (core/background.ts). */
export interface RoomEvents {
  /** Its internal events that are published as webhooks, with their public names. */
  events?: PublicEvents;
  /** An event hook, a worker the server runs, kicks that cross processes. */
  background?: BackgroundWork;
  /** Work of its own that commits with every event, in the event's transaction (store/events.ts), with no worker behind it. */
  eventHook?: EventHook;
  /** Work of its own whenever a session opens, in its transaction (core/session-opened.ts): a new device's mail. */
  sessionOpened?: SessionOpened;
}

/**
 * Words: every sentence its pages, page scripts and mails say, by id, in every shipped locale (its
 * words/ folder: en.ts and one file per locale); the kernel merges the rooms' catalogues (words/).
 */
export interface RoomWords {
  words?: Catalogue;
}

/** Commands: its operator commands and how `authsvc users create` makes a user of its kind (core/commands.ts). */
export interface RoomCommands {
  commands?: readonly CommandSpec[];
  userCreation?: UserCreationSpec;
}

/**
 * Internal events (store/events.ts insertEvent types) published as webhooks: each one's public
 * `type`, and `data` its public payload always has (on top of the event's own data and userId).
 */
export type PublicEvents = Readonly<Record<string, { type: string; data?: Readonly<Record<string, unknown>> }>>;
