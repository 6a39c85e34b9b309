import type { EventHandler } from "h3";
import type { Config } from "../config/types.js";
import type { CoreContext } from "../core/context.js";
import type { AdminRoute, AdminUserCreator } from "./admin/route.js";
import type { DashboardSectionPart } from "./dashboard-sections.js";
import type { HttpDeps } from "./deps.js";
import type { OpenApiArea } from "./openapi/types.js";
import type { AccountPagePart } from "./pages/account-parts.js";
import type { AssetTable } from "./pages/assets.js";
import type { PageRoute } from "./pages/route.js";
import type { SignInPart } from "./pages/sign-in-parts.js";
import type { PersonPagePart } from "./person-panels.js";
import type { Route } from "./route.js";

/**
 * The HTTP tables assembled from the rooms (kernel/http-tables.ts), which createHttpApp mounts
 * (HttpDeps.tables). A leaf: http/ reads the tables, never the rooms.
 */
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
  describe: ReadonlyArray<(ctx: CoreContext) => { answer: Record<string, unknown>; firstFactors: readonly string[] }>;
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
