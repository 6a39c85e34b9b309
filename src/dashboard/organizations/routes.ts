import type { DashboardRoute } from "../kit.js";
import { ORGANIZATIONS_PATH, showOrganization, showOrganizations } from "./pages.js";

/** The organizations' pages: the list and one organization (members, invitations, domains, roles). */
export const organizationDashboardRoutes: DashboardRoute[] = [
  { method: "GET", path: ORGANIZATIONS_PATH, handler: showOrganizations },
  { method: "GET", path: `${ORGANIZATIONS_PATH}/:id`, handler: showOrganization },
];
