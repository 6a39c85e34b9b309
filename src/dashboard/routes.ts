import type { HttpTables } from "../http/tables.js";
import { accountRoutes } from "./accounts/routes.js";
import type { DashboardRoute } from "./kit.js";
import { userRoutes } from "./users/routes.js";
import { opsRoutes } from "./ops/routes.js";
import { roomSectionRoutes } from "./room-sections.js";

/**
 * The dashboard's route table (pages and actions behind the admin session; the sign-in pages and
 * assets are the mount's own). Each of the dashboard's parts lists its slice here, so the whole
 * dashboard reads on one screen; the person page and the rooms' sections take the rooms' parts from
 * the tables (Room.personPage, Room.dashboardSection).
 */
export const dashboardRoutes = (tables: Pick<HttpTables, "personPage" | "dashboardSections">): readonly DashboardRoute[] => [
  // dashboard-rooms: one spread per room
  ...accountRoutes,
  ...userRoutes(tables.personPage),
  ...roomSectionRoutes(tables.dashboardSections),
  ...opsRoutes,
];
