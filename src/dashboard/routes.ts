import type { HttpTables } from "../http/room.js";
import { accountRoutes } from "./accounts/routes.js";
import type { DashboardRoute } from "./kit.js";
import { userRoutes } from "./users/routes.js";
import { opsRoutes } from "./ops/routes.js";
import { organizationDashboardRoutes } from "./organizations/routes.js";

/**
 * The dashboard's route table (pages and actions behind the admin session; the sign-in pages and
 * assets are the mount's own). Each room lists its slice here, so the whole dashboard reads on one
 * screen; the person page takes the rooms' parts of it from the tables (Room.personPage).
 */
export const dashboardRoutes = (tables: Pick<HttpTables, "personPage">): readonly DashboardRoute[] => [
  // dashboard-rooms: one spread per room
  ...accountRoutes,
  ...userRoutes(tables.personPage),
  ...organizationDashboardRoutes,
  ...opsRoutes,
];
