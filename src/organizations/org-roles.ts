import type { Kysely } from "kysely";
import { badInput } from "../core/errors.js";
import type { DB } from "../store/schema.js";
import { findPermissions, findRole, listRoles } from "../roles/store.js";

/**
 * The roles a member may have in an organization. Three are built in with fixed permissions; any
 * other is a role the operator defined in the roles room and marked for organizations (`authsvc
 * roles create billing … --organization`, `"organization": true` in `PUT /admin/v1/roles/<role>`),
 * with that role's permissions, so an app describes "billing" or "viewer" once and gives it per
 * organization. An unmarked role is a platform role (users:delete…): an owner, who may be anyone,
 * must not be able to hand it out, so it is refused where a role is given and carries no
 * permission in an organization. A built-in name always means the built-in role.
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

/** A role's permissions (sorted), or undefined when no such role may be had in an organization (built in, or the operator's marked for organizations). */
export async function permissionsOfRole(db: Kysely<DB>, role: string): Promise<string[] | undefined> {
  const fixed = builtIn[role];
  if (fixed) return [...fixed].sort();
  if (!(await findRole(db, role))?.organization) return undefined;
  return findPermissions(db, role);
}

/** A role given in an organization (an invitation, a member's role, a domain's): its permissions, or 400 with the reason it may not be. */
export async function checkOrganizationRole(db: Kysely<DB>, role: string): Promise<string[]> {
  const permissions = await permissionsOfRole(db, role);
  if (permissions !== undefined) return permissions;
  if (await findRole(db, role)) throw badInput(`the role ${role} is not one organizations may hand out: the operator marks such roles (authsvc roles create ${role} --organization)`);
  throw badInput(`no such role: ${role}`);
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

/** The roles a member with `actorRole` may hand out (invite with, give a member): built in first, then the operator's. */
export async function rolesToHandOut(db: Kysely<DB>, actorRole: string): Promise<string[]> {
  const operators = (await listRoles(db)).filter((r) => r.organization && !builtIn[r.role]).map((r) => r.role);
  const all = [...builtInRoles, ...operators];
  const allowed = await Promise.all(all.map((r) => outranks(db, actorRole, r)));
  return all.filter((_, i) => allowed[i]);
}
