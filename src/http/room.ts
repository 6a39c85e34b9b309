import type { EventHandler } from "h3";
import type { SettingsBlock, SettingsCheck } from "../config/engine.js";
import type { Config } from "../config/types.js";
import type { BackgroundWork } from "../core/background.js";
import type { ClaimProvider, Factor } from "../core/claims.js";
import type { CommandSpec, UserCreationSpec } from "../core/commands.js";
import type { CoreContext, RoomState } from "../core/context.js";
import type { ImportPart } from "../core/import-parts.js";
import type { LoginKind, MergePerson } from "../core/logins.js";
import type { PersonDeletion } from "../core/person-deletion.js";
import type { PurgeRule } from "../core/purge.js";
import type { WayIn } from "../core/ways-in.js";
import type { MailBlock } from "../mail/kinds.js";
import type { AdminRoute, AdminUserCreator } from "./admin/route.js";
import type { HttpDeps } from "./deps.js";
import type { Json, OpenApiArea } from "./openapi/types.js";
import { createAssetTable, kernelPageAssetsWith, type AssetTable } from "./pages/assets.js";
import type { AccountPagePart } from "./pages/account-parts.js";
import type { PageRoute } from "./pages/route.js";
import type { DashboardSectionPart } from "./dashboard-sections.js";
import { PERSON_FACTS, type PersonPagePart } from "./person-panels.js";
import type { SignInPart } from "./pages/sign-in-parts.js";
import type { Route } from "./route.js";

/**
 * A room's declaration: everything the kernel needs from a sign-in method or a feature (routes,
 * admin routes, pages, its part of the OpenAPI document and of GET /loginmethods, its claims, its
 * state in the context). Every field but `id` is optional; the kernel loops over the list the
 * composition root gives it (src/rooms.ts) and never names a room. The shape follows the house's
 * ClaimProvider (core/claims.ts): declared once by the room, listed once, looped over.
 */
export interface Room {
  id: string;
  /** Its settings, placed in the one table (config.ts), and the checks that span them. */
  settings?: readonly SettingsBlock[];
  settingsChecks?: readonly SettingsCheck[];
  /**
   * Its words in the kernel's settings' descriptions, by setting (config/kernel-settings.ts), e.g.
   * the name `--mfa` gives its second factor, or what `--limit-mail-ip` calls its mail requests.
   */
  settingWords?: Readonly<Partial<Record<keyof Config, string>>>;
  /** Its slice of the API's route table (under the API base path). */
  routes?: readonly Route[];
  /** Its routes under /admin/v1 (behind the admin key). */
  adminRoutes?: readonly AdminRoute[];
  /** How POST /admin/v1/users creates a user of its kind (http/admin/route.ts). */
  adminUserCreator?: AdminUserCreator;
  /** Its hosted pages for this configuration (absolute paths). */
  pages?(config: Readonly<Config>): PageRoute[];
  /** The static files its pages load (name → text), served beside the kernel's under /_assets. */
  assets?: Readonly<Record<string, string>>;
  /** The style rules of its pages' own classes, added after the kernel's to the pages' one stylesheet (pages.css). */
  styles?: string;
  /**
   * Its area of the public OpenAPI document, and of the admin API's. The area that describes GET
   * /loginmethods is built from every room's part of that answer (describeSchema), in their order.
   */
  openapi?: OpenApiArea | ((loginMethods: readonly DescribedPart[]) => OpenApiArea);
  adminOpenapi?: OpenApiArea;
  /** Its part of GET /loginmethods: the answer's field(s), and the first factors it offers now. */
  describe?(ctx: CoreContext): { answer: Record<string, unknown>; firstFactors: readonly string[] };
  /** The schema of that part, for the OpenAPI document. */
  describeSchema?: DescribedPart;
  /** The MFA factors it provides, first or secondary, under their SDK factor ids (core/mfa.ts). */
  factors?: readonly Factor[];
  /** Its claims in access tokens (checked for clashes once, core/claims.ts). */
  claims?(config: Readonly<Config>): readonly ClaimProvider[];
  /** Its state in the context, built once at start (a bad setting throws ConfigError). */
  init?(config: Readonly<Config>): Partial<RoomState>;
  /** A handler mounted before CORS, beside the admin API (the dashboard under /admin). */
  mount?(deps: HttpDeps): EventHandler;
  /**
   * The path(s) the mount answers at and under (e.g. "/admin"). Requests elsewhere pass it by
   * without calling it, so a mount costs the API's hot path a few string comparisons, not a handler call.
   */
  mountPath?: string | readonly string[];
  /**
   * A sign-in method's logins: how it lists a person's logins of its kind (the USER object, the
   * admin list, search, export, the account page, the notice of a join); core/logins.ts.
   */
  logins?: LoginKind;
  /** Its part of a `users import` record (login methods, fields at the top) and the rows it writes (core/import-parts.ts). */
  importer?: ImportPart;
  /** How it moves the rows a person owns when two people are joined (core/person-join.ts). */
  mergePerson?: MergePerson;
  /** What it says before a person is deleted: a refusal, and what it removes with them (core/person-deletion.ts). */
  personDeletion?: PersonDeletion;
  /**
   * What it holds that lets someone act as a person (sessions, OAuth grants, API keys…): how to list
   * and end them for a person. Every security event ends every declared one (core/ways-in.ts).
   */
  waysIn?: readonly WayIn[];
  /** Its purge rules: its rows no request can use any more (expired codes, challenges); core/purge.ts. */
  purge?: readonly PurgeRule[];
  /** The mail it sends: its kinds with their templates and file stems, and how the inbox names them (mail/kinds.ts). */
  mail?: MailBlock;
  /** Paths of its own (absolute, a trailing * for a prefix) a hosted sign-in may return to, besides pagesRedirectPaths. */
  returnPaths?(config: Readonly<Config>): readonly string[];
  /** Its part of the hosted account page ("My account"): links, markup in the page's slots and its module (http/pages/account-parts.ts). */
  accountPage?: AccountPagePart;
  /** Its panels, lines and actions on the admin dashboard's person page (http/person-panels.ts). */
  personPage?: PersonPagePart;
  /** Its section of the admin dashboard: a navigation entry, its pages and actions, its figures on the overview (http/dashboard-sections.ts). */
  dashboardSection?: DashboardSectionPart;
  /** Its internal events that are published as webhooks, with their public names (the webhooks room's table). */
  events?: PublicEvents;
  /** Its part of the hosted sign-in page: markup in the page's slots and its module (http/pages/sign-in-parts.ts). */
  signIn?: SignInPart;
  /** Its operator commands (`authsvc passkeys`, `authsvc users mfa`), which src/cli builds (core/commands.ts). */
  commands?: readonly CommandSpec[];
  /** How `authsvc users create` makes a user of its kind (core/commands.ts). */
  userCreation?: UserCreationSpec;
  /** Its background work: an event hook, a worker the server runs, kicks that cross processes (core/background.ts). */
  background?: BackgroundWork;
}

/**
 * Internal events (store/events.ts insertEvent types) published as webhooks: each one's public
 * `type`, and `data` its public payload always has (on top of the event's own data and userId).
 */
export type PublicEvents = Readonly<Record<string, { type: string; data?: Readonly<Record<string, unknown>> }>>;

/** The schema of a room's part of GET /loginmethods (Room.describe): its field(s), those always there, its first factors. */
export interface DescribedPart {
  fields: Record<string, Json>;
  required?: readonly string[];
  firstFactors: readonly string[];
}

/** The schema of a part that is `{ enabled: boolean }`. */
export const enabledPart = (): Json => ({ type: "object", required: ["enabled"], additionalProperties: false, properties: { enabled: { type: "boolean" } } });

/** The HTTP tables assembled from the rooms, which createHttpApp mounts (HttpDeps.tables). */
export interface HttpTables {
  routes: readonly Route[];
  adminRoutes: readonly AdminRoute[];
  /** The ways POST /admin/v1/users creates a user, in the rooms' order. */
  userCreators: readonly AdminUserCreator[];
  pages(config: Readonly<Config>): PageRoute[];
  /** The pages' static files: the kernel's and every room's. */
  assets: AssetTable;
  publicAreas: readonly OpenApiArea[];
  adminAreas: readonly OpenApiArea[];
  mounts: ReadonlyArray<{ handler: (deps: HttpDeps) => EventHandler; path?: string | readonly string[] }>;
  describe: ReadonlyArray<NonNullable<Room["describe"]>>;
  /** Where a hosted sign-in may return: the setting's paths and the rooms' own. */
  returnPaths(config: Readonly<Config>): string[];
  /** The rooms' parts of the account page, in their order. */
  accountPage: readonly AccountPagePart[];
  /** The rooms' parts of the dashboard's person page, in the rooms' order. */
  personPage: Required<PersonPagePart>;
  /** The rooms' sections of the dashboard, in the rooms' order. */
  dashboardSections: readonly DashboardSectionPart[];
  /** The rooms' parts of the sign-in page, in their order. */
  signIn: readonly SignInPart[];
}

/** Builds the HTTP tables from the rooms, in their order (the order the OpenAPI document shows). */
export function assembleHttpTables(rooms: readonly Room[]): HttpTables {
  const ids = new Set<string>();
  for (const r of rooms) {
    if (ids.has(r.id)) throw new Error(`room ${r.id} is listed twice`);
    ids.add(r.id);
  }
  const pick = <T>(f: (r: Room) => T | undefined): T[] => rooms.flatMap((r) => { const v = f(r); return v === undefined ? [] : [v]; });
  const described = pick((r) => r.describeSchema);
  return {
    routes: rooms.flatMap((r) => r.routes ?? []),
    adminRoutes: rooms.flatMap((r) => r.adminRoutes ?? []),
    userCreators: pick((r) => r.adminUserCreator),
    pages: (config) => rooms.flatMap((r) => r.pages?.(config) ?? []),
    assets: createAssetTable(mergeAssets([kernelPageAssetsWith(pick((r) => r.styles), pick((r) => r.signIn).flatMap((p) => p.refusals ?? [])), ...pick((r) => r.assets)])),
    publicAreas: pick((r) => (typeof r.openapi === "function" ? r.openapi(described) : r.openapi)),
    adminAreas: pick((r) => r.adminOpenapi),
    mounts: pick((r) => (r.mount ? { handler: r.mount, path: r.mountPath } : undefined)),
    describe: pick((r) => r.describe),
    returnPaths: (config) => [...config.pagesRedirectPaths, ...rooms.flatMap((r) => r.returnPaths?.(config) ?? [])],
    accountPage: pick((r) => r.accountPage),
    personPage: {
      panels: unique("person page panel", rooms.flatMap((r) => r.personPage?.panels ?? []), (p) => p.id, [PERSON_FACTS]),
      facts: rooms.flatMap((r) => r.personPage?.facts ?? []),
      actions: unique("person page action", rooms.flatMap((r) => r.personPage?.actions ?? []), (a) => a.path),
    },
    dashboardSections: unique("dashboard section", pick((r) => r.dashboardSection), (s) => s.path),
    signIn: pick((r) => r.signIn),
  };
}

/** The list, when no two of its items share a key nor take a reserved one (a panel id or an action path twice is a programming error). */
function unique<T>(what: string, items: T[], key: (item: T) => string, reserved: readonly string[] = []): T[] {
  const seen = new Set<string>();
  for (const item of items) {
    if (reserved.includes(key(item))) throw new Error(`${what} ${key(item)} takes a reserved name`);
    if (seen.has(key(item))) throw new Error(`${what} ${key(item)} is declared twice`);
    seen.add(key(item));
  }
  return items;
}

/** One asset namespace for all pages: a name two rooms both use is a programming error. */
function mergeAssets(sets: ReadonlyArray<Readonly<Record<string, string>>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const set of sets) {
    for (const [name, text] of Object.entries(set)) {
      if (name in out) throw new Error(`page asset ${name} is declared twice`);
      out[name] = text;
    }
  }
  return out;
}
