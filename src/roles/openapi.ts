import { ADMIN_PREFIX } from "../http/admin/route.js";
import { adminOpenApi as a } from "../http/openapi/admin.js";
import { json, ref } from "../http/openapi/components.js";
import type { OpenApiArea } from "../http/openapi/types.js";

const role = a.param("role", "the role's name");
const strings = { type: "array", items: { type: "string" } };
const organization = { type: "boolean", description: "whether organizations may hand this role out (invitations, member roles, domains); absent: unchanged (a new role: false)" };
const permissionsBody = a.body(a.object({ permissions: strings, organization }, ["permissions"]), true);
const assignment = json("the person's roles after the change; `changed` is false when nothing changed", a.object({ userId: { type: "string" }, roles: strings, changed: { type: "boolean" } }));
const op = (id: string, summary: string, rest: Record<string, unknown>) => ({ ...a.op(id, summary, rest), tags: ["roles"] });

/** The admin API's roles and permissions (src/roles/admin.ts). */
export const rolesAdminArea: OpenApiArea = {
  tag: { name: "roles", description: "Admin API: roles with permissions, given to users; access tokens carry them as st-role and st-perm" },
  prefix: () => ADMIN_PREFIX,
  paths: {
    "/roles": {
      get: op("adminListRoles", "Every role with its permissions", { responses: { 200: json("the roles", a.object({ roles: { type: "array", items: ref("Role") } })), ...a.errorsFor() } }),
    },
    "/roles/{role}": {
      put: op("adminPutRole", "Create the role, or make these exactly its permissions", {
        parameters: [role], requestBody: permissionsBody,
        responses: { 200: json("updated", ref("RoleChange")), 201: json("created", ref("RoleChange")), ...a.bodyErrors() },
      }),
      delete: op("adminDeleteRole", "Delete the role; everyone who had it loses it at their next refresh", {
        parameters: [role], responses: { 200: json("deleted", a.object({ deleted: { type: "string" } })), ...a.errorsFor(400) },
      }),
    },
    "/roles/{role}/permissions": {
      post: op("adminAddPermissions", "Add permissions to the role (created if new)", {
        parameters: [role], requestBody: permissionsBody, responses: { 200: json("the role now", ref("RoleChange")), ...a.bodyErrors() },
      }),
    },
    "/roles/{role}/permissions/{permission}": {
      delete: op("adminRemovePermission", "Take one permission from the role", {
        parameters: [role, a.param("permission", "the permission")], responses: { 200: json("the role now", ref("Role")), ...a.errorsFor(400) },
      }),
    },
    "/roles/{role}/users": {
      get: op("adminListRoleUsers", "The ids of the users who have the role", {
        parameters: [role], responses: { 200: json("user ids", a.object({ users: strings })), ...a.errorsFor(400) },
      }),
    },
    "/users/{id}/roles": {
      get: op("adminGetUserRoles", "The user's roles and the permissions they carry", {
        parameters: [a.userId], responses: { 200: json("roles and permissions", a.object({ userId: { type: "string" }, roles: strings, permissions: strings })), ...a.errorsFor(400) },
      }),
    },
    "/users/{id}/roles/{role}": {
      put: op("adminGiveRole", "Give the user a role (it must exist)", { parameters: [a.userId, role], responses: { 200: assignment, ...a.errorsFor(400) } }),
      delete: op("adminTakeRole", "Take a role from the user", { parameters: [a.userId, role], responses: { 200: assignment, ...a.errorsFor(400) } }),
    },
  },
  schemas: {
    Role: a.object({ role: { type: "string" }, permissions: strings, organization: { type: "boolean", description: "organizations may hand it out" } }),
    RoleChange: a.object({ role: { type: "string" }, permissions: strings, organization: { type: "boolean" }, created: { type: "boolean" } }),
  },
};
