import { defineEventHandler, setResponseStatus, type H3Event } from "h3";
import { AuthError, badInput } from "../core/errors.js";
import { readJsonBody } from "../http/body.js";
import type { HttpDeps } from "../http/deps.js";
import type { AdminRoute } from "../http/admin/route.js";
import { pathParam } from "../http/admin/input.js";
import { PERSON_FACTS, type PersonFact, type PersonPagePart } from "../http/person-panels.js";
import { checkRoleName, deleteRole, getUserRoles, listRoleHolders, listRoles, putRole, removePermissions, setUserRole, type AssignResult } from "./roles.js";

const noRole = () => new AuthError("NOT_FOUND", "No such role");
const noUser = () => new AuthError("NOT_FOUND", "No such user");

/** `{"permissions": [...], "organization"?: true|false}` from the body. */
async function readRoleBody(event: H3Event, deps: HttpDeps): Promise<{ permissions: string[]; organization?: boolean }> {
  const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
  if (!("permissions" in body)) throw badInput("permissions is required: an array of strings");
  if (body.organization !== undefined && typeof body.organization !== "boolean") throw badInput("organization must be true or false: whether organizations may hand this role out");
  return { permissions: body.permissions as string[], organization: body.organization as boolean | undefined };
}

function assigned(r: AssignResult, userId: string) {
  if (r.status === "UNKNOWN_USER") throw noUser();
  if (r.status === "UNKNOWN_ROLE") throw noRole();
  return { userId, roles: r.roles, changed: r.changed };
}

/** The admin API's roles routes (http/admin/routes.ts lists them with the others). */
export const roleAdminRoutes: readonly AdminRoute[] = [
  // GET /roles: every role with its permissions.
  { method: "GET", path: "/roles", handler: (deps) => defineEventHandler(async () => ({ roles: await listRoles(deps.ctx) })) },
  // PUT /roles/:role {permissions, organization?}: creates the role or makes these exactly its
  // permissions; `organization` marks whether organizations may hand it out (absent: unchanged).
  {
    method: "PUT", path: "/roles/:role", handler: (deps) => defineEventHandler(async (event) => {
      const role = checkRoleName(pathParam(event, "role"));
      const body = await readRoleBody(event, deps);
      const r = await putRole(deps.ctx, role, body.permissions, { replace: true, organization: body.organization, source: "admin-api" });
      if (r.created) setResponseStatus(event, 201);
      return { ...r.role, created: r.created };
    }),
  },
  // POST /roles/:role/permissions {permissions}: adds permissions (creating the role if new).
  {
    method: "POST", path: "/roles/:role/permissions", handler: (deps) => defineEventHandler(async (event) => {
      const role = checkRoleName(pathParam(event, "role"));
      const body = await readRoleBody(event, deps);
      const r = await putRole(deps.ctx, role, body.permissions, { organization: body.organization, source: "admin-api" });
      return { ...r.role, created: r.created };
    }),
  },
  // DELETE /roles/:role/permissions/:permission: takes one permission from the role.
  {
    method: "DELETE", path: "/roles/:role/permissions/:permission", handler: (deps) => defineEventHandler(async (event) => {
      const r = await removePermissions(deps.ctx, pathParam(event, "role"), [pathParam(event, "permission")], "admin-api");
      if (!r) throw noRole();
      return r;
    }),
  },
  // DELETE /roles/:role: the role goes; everyone who had it loses it at their next refresh.
  {
    method: "DELETE", path: "/roles/:role", handler: (deps) => defineEventHandler(async (event) => {
      const role = pathParam(event, "role");
      if (!(await deleteRole(deps.ctx, role, "admin-api"))) throw noRole();
      return { deleted: role };
    }),
  },
  // GET /roles/:role/users: the user ids that have it.
  {
    method: "GET", path: "/roles/:role/users", handler: (deps) => defineEventHandler(async (event) => {
      const users = await listRoleHolders(deps.ctx, pathParam(event, "role"));
      if (!users) throw noRole();
      return { users };
    }),
  },
  // GET /users/:id/roles: the person's roles and the permissions they carry.
  {
    method: "GET", path: "/users/:id/roles", handler: (deps) => defineEventHandler(async (event) => {
      const r = await getUserRoles(deps.ctx, pathParam(event, "id"));
      if (!r) throw noUser();
      return r;
    }),
  },
  // PUT /users/:id/roles/:role and DELETE /users/:id/roles/:role: give or take a role.
  { method: "PUT", path: "/users/:id/roles/:role", handler: (deps) => defineEventHandler(async (event) => assigned(await setUserRole(deps.ctx, pathParam(event, "id"), pathParam(event, "role"), { source: "admin-api" }), pathParam(event, "id"))) },
  { method: "DELETE", path: "/users/:id/roles/:role", handler: (deps) => defineEventHandler(async (event) => assigned(await setUserRole(deps.ctx, pathParam(event, "id"), pathParam(event, "role"), { remove: true, source: "admin-api" }), pathParam(event, "id"))) },
];

const rolesFact: PersonFact<string[]> = {
  panel: PERSON_FACTS,
  term: "Roles",
  load: async (ctx, person) => (await getUserRoles(ctx, person.id))?.roles ?? [],
  render: (roles, kit) => (roles.length ? roles.map(kit.escape).join(", ") : '<span class="muted">none</span>'),
};

/** On the dashboard's person page: their roles, a line of the facts at the top (who they are). */
export const rolesPersonPage: PersonPagePart = { facts: [rolesFact] };
