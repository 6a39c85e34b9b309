import type { Room } from "../kernel/room.js";
import { roleAdminRoutes, rolesPersonPage } from "./admin.js";
import { createRoleClaims } from "./claims.js";
import { roleCommands, userRoleCommand } from "./commands.js";
import { rolesAdminArea } from "./openapi.js";
import { rolesImport } from "./import.js";
import { mergeRoles } from "./merge.js";

/** Roles and permissions: admin routes, the operator's commands, a line of the dashboard's person page and the access token's role claims. */
export const rolesRoom: Room = {
  id: "roles",
  events: { "user.roles_changed": { type: "user.roles_changed" } },
  mergePerson: mergeRoles,
  importer: rolesImport,
  adminRoutes: roleAdminRoutes,
  adminOpenapi: rolesAdminArea,
  personPage: rolesPersonPage,
  claims: () => [createRoleClaims()],
  commands: [roleCommands, userRoleCommand],
};
