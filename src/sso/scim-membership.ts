import type { Kysely } from "kysely";
import { insertEvent } from "../store/events.js";
import type { DB } from "../store/schema.js";
import type { Memberships } from "../core/memberships.js";
import * as store from "./store.js";

/**
 * What a provisioned user is in the organization. The directory decides: an active user is a
 * member with the role their groups give (a group whose display name is an organization role,
 * built in or the operator's, gives it: "admin" wins over the operator's roles, which win over
 * "member"); an inactive one is no member. An owner is never demoted or removed by the directory
 * (an organization keeps its owner; the operator changes owners).
 */
export async function roleFromGroups(tx: Kysely<DB>, orgs: Memberships, groupNames: readonly string[]): Promise<string> {
  const roles: string[] = [];
  for (const name of groupNames) {
    const role = name.trim().toLowerCase();
    if (role !== orgs.ownerRole && (await orgs.permissionsOfRole(tx, role)) !== undefined) roles.push(role);
  }
  if (roles.includes("admin")) return "admin";
  return roles.find((r) => r !== "member") ?? "member";
}

/** Brings the person's membership in line with the provisioned user (role from groups, or removed when inactive). */
export async function syncMembership(tx: Kysely<DB>, orgs: Memberships, user: store.ScimUserRow, now: number): Promise<void> {
  const orgId = user.organization_id;
  const m = await orgs.findMember(tx, orgId, user.user_id);
  const data = { organizationId: orgId, source: "scim" };
  if (user.active !== 1) {
    if (m && m.role !== orgs.ownerRole) {
      await orgs.deleteMember(tx, orgId, m.user_id);
      await insertEvent(tx, { at: now, type: "organization.member_removed", userId: user.user_id, data });
    }
    return;
  }
  const role = await roleFromGroups(tx, orgs, await store.groupNamesOf(tx, user.id));
  if (!m) {
    await orgs.insertMember(tx, { organization_id: orgId, user_id: user.user_id, role, created_at: now, active_at: null });
    await insertEvent(tx, { at: now, type: "organization.member_added", userId: user.user_id, data: { ...data, role } });
  } else if (m.role !== orgs.ownerRole && m.role !== role) {
    await orgs.setMemberRole(tx, orgId, m.user_id, role);
    await insertEvent(tx, { at: now, type: "organization.member_role_changed", userId: user.user_id, data: { ...data, role, from: m.role } });
  }
}
