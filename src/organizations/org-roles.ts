import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import { findPermissions, findRole } from "../roles/store.js";

/**
 * The roles a member may have in an organization. Three are built in with fixed permissions; any
 * other is a role the operator defined in the roles room (`PUT /admin/v1/roles/<role>`), with that
 * role's permissions, so an app describes "billing" or "viewer" once and gives it per organization.
 * A built-in name always means the built-in role.
 */
export const ORG_PERMISSIONS = [
  "org:read", "org:update", "org:delete",
  "members:read", "members:update", "members:remove",
  "invitations:read", "invitations:create", "invitations:revoke",
] as const;
export type OrgPermission = (typeof ORG_PERMISSIONS)[number];

export const OWNER = "owner";
/** The role of an invitation that names none, or whose operator role was deleted before it was accepted. */
export const MEMBER_FALLBACK = "member";
const builtIn: Readonly<Record<string, readonly string[]>> = {
  owner: ORG_PERMISSIONS,
  admin: ORG_PERMISSIONS.filter((p) => p !== "org:delete"),
  member: ["org:read", "members:read"],
};
export const builtInRoles: readonly string[] = Object.keys(builtIn);

/** A role's permissions (sorted), or undefined when no such role exists (built in or the operator's). */
export async function permissionsOfRole(db: Kysely<DB>, role: string): Promise<string[] | undefined> {
  const fixed = builtIn[role];
  if (fixed) return [...fixed].sort();
  if (!(await findRole(db, role))) return undefined;
  return findPermissions(db, role);
}

/**
 * Whether a member with `actorRole` may act on a member with (or hand out) `targetRole`: an owner
 * may do anything; anyone else only on roles whose permissions are all theirs too, and never on
 * an owner. So no one can give more than they have.
 */
export async function outranks(db: Kysely<DB>, actorRole: string, targetRole: string): Promise<boolean> {
  if (actorRole === OWNER) return true;
  if (targetRole === OWNER) return false;
  const mine = new Set(await permissionsOfRole(db, actorRole) ?? []);
  const theirs = await permissionsOfRole(db, targetRole) ?? [];
  return theirs.every((p) => mine.has(p));
}
