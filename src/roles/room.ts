import type { Room } from "../http/room.js";
import { roleAdminRoutes } from "./admin.js";
import { createRoleClaims } from "./claims.js";
import { rolesAdminArea } from "./openapi.js";
import { mergeRoles } from "./merge.js";

/** Roles and permissions: admin routes and the access token's role claims. */
export const rolesRoom: Room = {
  id: "roles",
  events: { "user.roles_changed": { type: "user.roles_changed" } },
  mergePerson: mergeRoles,
  adminRoutes: roleAdminRoutes,
  adminOpenapi: rolesAdminArea,
  claims: () => [createRoleClaims()],
};
