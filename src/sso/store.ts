import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import type { ScimGroupsTable, ScimUsersTable } from "./schema.js";
import "./schema.js";

/** SCIM tokens, provisioned users and groups. No rules here (see scim-users.ts, scim-groups.ts). */

export type ScimUserRow = ScimUsersTable;
export type ScimGroupRow = ScimGroupsTable;

/** Stores the organization's token hash, replacing the one it had (the old token stops working at once). */
export async function putToken(db: Kysely<DB>, organizationId: string, tokenHash: string, now: number): Promise<void> {
  await db.insertInto("scim_tokens").values({ organization_id: organizationId, token_hash: tokenHash, created_at: now })
    .onConflict((oc) => oc.column("organization_id").doUpdateSet({ token_hash: tokenHash, created_at: now })).execute();
}

export async function findTokenOrganization(db: Kysely<DB>, tokenHash: string): Promise<string | undefined> {
  return (await db.selectFrom("scim_tokens").select("organization_id").where("token_hash", "=", tokenHash).executeTakeFirst())?.organization_id;
}

export async function findUser(db: Kysely<DB>, organizationId: string, id: string): Promise<ScimUserRow | undefined> {
  return db.selectFrom("scim_users").selectAll().where("organization_id", "=", organizationId).where("id", "=", id).executeTakeFirst();
}

export async function findUserByPerson(db: Kysely<DB>, organizationId: string, userId: string): Promise<ScimUserRow | undefined> {
  return db.selectFrom("scim_users").selectAll().where("organization_id", "=", organizationId).where("user_id", "=", userId).executeTakeFirst();
}

export async function findUserByName(db: Kysely<DB>, organizationId: string, userName: string): Promise<ScimUserRow | undefined> {
  return db.selectFrom("scim_users").selectAll().where("organization_id", "=", organizationId).where("user_name", "=", userName).executeTakeFirst();
}

/** The organization's provisioned users, oldest first. */
export async function listUsers(db: Kysely<DB>, organizationId: string): Promise<ScimUserRow[]> {
  return db.selectFrom("scim_users").selectAll().where("organization_id", "=", organizationId).orderBy("created_at").orderBy("id").execute();
}

export async function insertUser(db: Kysely<DB>, row: ScimUserRow): Promise<void> {
  await db.insertInto("scim_users").values(row).execute();
}

export async function updateUser(db: Kysely<DB>, id: string, set: Pick<ScimUserRow, "user_name" | "external_id" | "active" | "resource" | "updated_at">): Promise<void> {
  await db.updateTable("scim_users").set(set).where("id", "=", id).execute();
}

export async function deleteUser(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom("scim_users").where("id", "=", id).execute();
}

export async function findGroup(db: Kysely<DB>, organizationId: string, id: string): Promise<ScimGroupRow | undefined> {
  return db.selectFrom("scim_groups").selectAll().where("organization_id", "=", organizationId).where("id", "=", id).executeTakeFirst();
}

export async function listGroups(db: Kysely<DB>, organizationId: string): Promise<ScimGroupRow[]> {
  return db.selectFrom("scim_groups").selectAll().where("organization_id", "=", organizationId).orderBy("created_at").orderBy("id").execute();
}

export async function insertGroup(db: Kysely<DB>, row: ScimGroupRow): Promise<void> {
  await db.insertInto("scim_groups").values(row).execute();
}

export async function updateGroup(db: Kysely<DB>, id: string, set: Pick<ScimGroupRow, "display_name" | "external_id" | "updated_at">): Promise<void> {
  await db.updateTable("scim_groups").set(set).where("id", "=", id).execute();
}

export async function deleteGroup(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom("scim_groups").where("id", "=", id).execute();
}

/** Every membership of the organization's groups: group id and SCIM user id (with the user's userName). */
export async function listGroupMembers(db: Kysely<DB>, organizationId: string): Promise<Array<{ group_id: string; scim_user_id: string; user_name: string }>> {
  return db.selectFrom("scim_group_members as m").innerJoin("scim_groups as g", "g.id", "m.group_id").innerJoin("scim_users as u", "u.id", "m.scim_user_id")
    .select(["m.group_id", "m.scim_user_id", "u.user_name"]).where("g.organization_id", "=", organizationId).orderBy("u.created_at").execute();
}

export async function addGroupMember(db: Kysely<DB>, groupId: string, scimUserId: string): Promise<void> {
  await db.insertInto("scim_group_members").values({ group_id: groupId, scim_user_id: scimUserId }).onConflict((oc) => oc.columns(["group_id", "scim_user_id"]).doNothing()).execute();
}

export async function removeGroupMember(db: Kysely<DB>, groupId: string, scimUserId: string): Promise<void> {
  await db.deleteFrom("scim_group_members").where("group_id", "=", groupId).where("scim_user_id", "=", scimUserId).execute();
}

export async function clearGroupMembers(db: Kysely<DB>, groupId: string): Promise<void> {
  await db.deleteFrom("scim_group_members").where("group_id", "=", groupId).execute();
}

/** The display names of the groups a provisioned user is in. */
export async function groupNamesOf(db: Kysely<DB>, scimUserId: string): Promise<string[]> {
  return (await db.selectFrom("scim_group_members as m").innerJoin("scim_groups as g", "g.id", "m.group_id").select("g.display_name")
    .where("m.scim_user_id", "=", scimUserId).orderBy("g.created_at").execute()).map((r) => r.display_name);
}

/** Remembers an accepted assertion id until `expiresAt` (forgetting the expired ones); a unique violation when it was seen already. */
export async function rememberAssertion(db: Kysely<DB>, connectionId: string, assertionId: string, expiresAt: number, now: number): Promise<void> {
  await db.deleteFrom("saml_assertions").where("expires_at", "<", now).execute();
  await db.insertInto("saml_assertions").values({ connection_id: connectionId, assertion_id: assertionId, expires_at: expiresAt }).execute();
}
