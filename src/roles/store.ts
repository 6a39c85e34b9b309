import { sql, type Kysely } from "kysely";
import { prepareQuery } from "../store/prepared.js";
import type { DB } from "../store/schema.js";

/** Roles, their permissions and who has them. No rules here (see roles.ts). */

export async function findRole(db: Kysely<DB>, name: string): Promise<{ name: string; organization: boolean } | undefined> {
  const r = await db.selectFrom("roles").select(["name", "organization"]).where("name", "=", name).executeTakeFirst();
  return r && { name: r.name, organization: Number(r.organization) === 1 };
}

/** Inserts a role; false when it exists already. */
export async function insertRole(db: Kysely<DB>, name: string, now: number, organization = false): Promise<boolean> {
  const r = await db.insertInto("roles").values({ name, created_at: now, organization: organization ? 1 : 0 }).onConflict((oc) => oc.column("name").doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Marks whether organizations may hand a role out; false when nothing changed. */
export async function setOrganizationRole(db: Kysely<DB>, name: string, organization: boolean): Promise<boolean> {
  const r = await db.updateTable("roles").set({ organization: organization ? 1 : 0 }).where("name", "=", name).where("organization", "!=", organization ? 1 : 0).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Deletes a role; its permissions and assignments go with it (ON DELETE CASCADE). */
export async function deleteRole(db: Kysely<DB>, name: string): Promise<boolean> {
  const r = await db.deleteFrom("roles").where("name", "=", name).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Adds permissions to a role; returns how many were new. */
export async function insertPermissions(db: Kysely<DB>, role: string, permissions: readonly string[]): Promise<number> {
  if (permissions.length === 0) return 0;
  const r = await db.insertInto("role_permissions").values(permissions.map((permission) => ({ role, permission })))
    .onConflict((oc) => oc.columns(["role", "permission"]).doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0);
}

/** Removes permissions from a role (all of them when `permissions` is undefined); returns how many. */
export async function deletePermissions(db: Kysely<DB>, role: string, permissions?: readonly string[]): Promise<number> {
  let q = db.deleteFrom("role_permissions").where("role", "=", role);
  if (permissions) {
    if (permissions.length === 0) return 0;
    q = q.where("permission", "in", permissions);
  }
  return Number((await q.executeTakeFirst()).numDeletedRows);
}

/** Every role with its permissions and whether organizations may hand it out, by name. */
export async function listRoles(db: Kysely<DB>): Promise<Array<{ role: string; permissions: string[]; organization: boolean }>> {
  const roles = await db.selectFrom("roles").select(["name", "organization"]).orderBy("name").execute();
  const perms = await db.selectFrom("role_permissions").select(["role", "permission"]).orderBy("role").orderBy("permission").execute();
  const by = new Map<string, string[]>(roles.map((r) => [r.name, []]));
  for (const p of perms) by.get(p.role)?.push(p.permission);
  return roles.map((r) => ({ role: r.name, permissions: by.get(r.name)!, organization: Number(r.organization) === 1 }));
}

/** Gives a role to a user row; false when it had it already. */
export async function insertUserRole(db: Kysely<DB>, userId: string, role: string, now: number): Promise<boolean> {
  const r = await db.insertInto("user_roles").values({ user_id: userId, role, created_at: now })
    .onConflict((oc) => oc.columns(["user_id", "role"]).doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Takes a role from any of these user rows; returns how many assignments went. */
export async function deleteUserRole(db: Kysely<DB>, userIds: readonly string[], role: string): Promise<number> {
  if (userIds.length === 0) return 0;
  const r = await db.deleteFrom("user_roles").where("user_id", "in", userIds).where("role", "=", role).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * The roles of a person and the permissions those roles carry, each sorted and without repeats.
 * Assignments on any login method of the person count (two people that were joined by account
 * linking keep the roles each had). One query each: this runs at every refresh.
 */
export async function findPersonRoles(db: Kysely<DB>, personId: string): Promise<{ roles: string[]; permissions: string[] }> {
  const roles = (await personRolesQuery(db, personId)).rows;
  if (roles.length === 0) return { roles: [], permissions: [] };
  const perms = await db.selectFrom("role_permissions").select("permission").distinct()
    .where("role", "in", roles.map((r) => r.role)).orderBy("permission").execute();
  return { roles: roles.map((r) => r.role), permissions: perms.map((p) => p.permission) };
}

/** The people (person ids) who have a role, oldest assignment first. */
export async function findRoleHolders(db: Kysely<DB>, role: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom("user_roles as r").innerJoin("users as u", "u.id", "r.user_id")
    .select(sql<string>`coalesce(u.primary_user_id, u.id)`.as("person_id"))
    .where("r.role", "=", role).orderBy("r.created_at").orderBy("r.user_id").limit(limit).execute();
  return [...new Set(rows.map((r) => r.person_id))];
}

/** A role's permissions, sorted. */
export async function findPermissions(db: Kysely<DB>, role: string): Promise<string[]> {
  return (await db.selectFrom("role_permissions").select("permission").where("role", "=", role).orderBy("permission").execute()).map((r) => r.permission);
}

/** Whether any of these user rows has the role. */
export async function hasRole(db: Kysely<DB>, userIds: readonly string[], role: string): Promise<boolean> {
  if (userIds.length === 0) return false;
  return (await db.selectFrom("user_roles").select("user_id").where("user_id", "in", userIds).where("role", "=", role).executeTakeFirst()) !== undefined;
}

// Every sign-in, sign-up and refresh builds the roles claim with this (store/prepared.ts).
const personRolesQuery = prepareQuery<[string], { role: string }>(1, (db, personId) =>
  db.selectFrom("user_roles").select("role").distinct()
    .where("user_id", "in", db.selectFrom("users").select("id").where((w) => w.or([w("id", "=", personId), w("primary_user_id", "=", personId)])))
    .orderBy("role"));
