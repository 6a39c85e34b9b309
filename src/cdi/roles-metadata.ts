import { AuthError } from "../core/errors.js";
import { clearMetadata, getMetadata, updateMetadata } from "../metadata/metadata.js";
import { deleteRole, getUserRoles, listRoleHolders, listRoles, putRole, removePermissions, setUserRole } from "../roles/roles.js";
import { CdiError, obj, str, strList, type CdiCall, type CdiRoute } from "./http.js";

/** Bad input the rooms refuse (a role name, a permission, metadata too large) is the core's 400. */
async function refusing<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof AuthError) throw new CdiError(400, err.message);
    throw err;
  }
}

const UNKNOWN_ROLE = { status: "UNKNOWN_ROLE_ERROR" };
const unknownUser = (c: CdiCall) => new CdiError(400, `Unknown user id: ${str(c, "userId")} (authsvc keeps roles and metadata for its own users only)`);

/** The user roles and user metadata recipes (supertokens-cdi-notes §1.6, §1.7) over authsvc's roles and metadata rooms. */
export const rolesMetadataRoutes: CdiRoute[] = [
  {
    method: "PUT", path: "/recipe/role",
    handler: (c) => refusing(async () => ({ status: "OK", createdNewRole: (await putRole(c.ctx, str(c, "role"), strList(c, "permissions") ?? [], { source: "cdi" })).created })),
  },
  { method: "GET", path: "/recipe/roles", handler: async (c) => ({ status: "OK", roles: (await listRoles(c.ctx)).map((r) => r.role) }) },
  {
    method: "GET", path: "/recipe/role/permissions",
    handler: async (c) => {
      const role = (await listRoles(c.ctx)).find((r) => r.role === str(c, "role"));
      return role ? { status: "OK", permissions: role.permissions } : UNKNOWN_ROLE;
    },
  },
  {
    method: "POST", path: "/recipe/role/permissions/remove",
    handler: (c) => refusing(async () => {
      const role = str(c, "role");
      const perms = strList(c, "permissions") ?? (await listRoles(c.ctx)).find((r) => r.role === role)?.permissions ?? [];
      return (await removePermissions(c.ctx, role, perms, "cdi")) ? { status: "OK" } : UNKNOWN_ROLE;
    }),
  },
  {
    method: "GET", path: "/recipe/permission/roles",
    handler: async (c) => ({ status: "OK", roles: (await listRoles(c.ctx)).filter((r) => r.permissions.includes(str(c, "permission"))).map((r) => r.role) }),
  },
  { method: "POST", path: "/recipe/role/remove", handler: async (c) => ({ status: "OK", didRoleExist: await deleteRole(c.ctx, str(c, "role"), "cdi") }) },
  {
    method: "PUT", path: "/recipe/user/role", tenant: true,
    handler: (c) => refusing(async () => {
      const r = await setUserRole(c.ctx, str(c, "userId"), str(c, "role"), { source: "cdi" });
      if (r.status === "UNKNOWN_ROLE") return UNKNOWN_ROLE;
      if (r.status === "UNKNOWN_USER") throw unknownUser(c);
      return { status: "OK", didUserAlreadyHaveRole: !r.changed };
    }),
  },
  {
    method: "POST", path: "/recipe/user/role/remove", tenant: true,
    handler: (c) => refusing(async () => {
      const r = await setUserRole(c.ctx, str(c, "userId"), str(c, "role"), { remove: true, source: "cdi" });
      if (r.status === "UNKNOWN_ROLE") return UNKNOWN_ROLE;
      if (r.status === "UNKNOWN_USER") throw unknownUser(c);
      return { status: "OK", didUserHaveRole: r.changed };
    }),
  },
  { method: "GET", path: "/recipe/user/roles", tenant: true, handler: async (c) => ({ status: "OK", roles: (await getUserRoles(c.ctx, str(c, "userId")))?.roles ?? [] }) },
  {
    method: "GET", path: "/recipe/role/users", tenant: true,
    handler: async (c) => {
      const users = await listRoleHolders(c.ctx, str(c, "role"));
      return users ? { status: "OK", users } : UNKNOWN_ROLE;
    },
  },
  { method: "GET", path: "/recipe/user/metadata", handler: async (c) => ({ status: "OK", metadata: (await getMetadata(c.ctx, str(c, "userId")))?.metadata ?? {} }) },
  {
    method: "PUT", path: "/recipe/user/metadata",
    handler: (c) => refusing(async () => {
      const r = await updateMetadata(c.ctx, str(c, "userId"), obj(c, "metadataUpdate"), "cdi");
      if (r.status === "UNKNOWN_USER") throw unknownUser(c);
      if (r.status === "TOO_LARGE") throw new CdiError(400, `metadata too large: ${r.bytes} bytes, the limit is ${r.limit}`);
      return { status: "OK", metadata: r.metadata };
    }),
  },
  {
    method: "POST", path: "/recipe/user/metadata/remove",
    handler: async (c) => {
      const r = await clearMetadata(c.ctx, str(c, "userId"), "cdi");
      if (r.status === "UNKNOWN_USER") throw unknownUser(c);
      return { status: "OK" };
    },
  },
];
