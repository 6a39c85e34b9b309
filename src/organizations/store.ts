import { PostgresAdapter, sql, type Kysely } from "kysely";
import { prepareQuery } from "../store/prepared.js";
import type { DB } from "../store/schema.js";
import type { OrganizationDomainsTable, OrganizationInvitationsTable, OrganizationsTable } from "./schema.js";
import "./schema.js";

/** Organizations, members and invitations. No rules here (see organizations.ts, invitations.ts). */

export type OrganizationRow = OrganizationsTable;
export type InvitationRow = OrganizationInvitationsTable;
export type DomainRow = OrganizationDomainsTable;
export interface MemberRow { organization_id: string; user_id: string; role: string; created_at: number; active_at: number | null }

/** Every user row of a person (a person's memberships may sit on any of their login methods). */
const personRows = (db: Kysely<DB>, personId: string) =>
  db.selectFrom("users").select("id").where((w) => w.or([w("id", "=", personId), w("primary_user_id", "=", personId)]));

export async function insertOrganization(db: Kysely<DB>, row: OrganizationRow): Promise<void> {
  await db.insertInto("organizations").values(row).execute();
}

export async function findOrganization(db: Kysely<DB>, id: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom("organizations").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function findOrganizationBySlug(db: Kysely<DB>, slug: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom("organizations").selectAll().where("slug", "=", slug).executeTakeFirst();
}

/**
 * On PostgreSQL, holds the organization's row until commit, so membership changes of one
 * organization run one after the other (two owners demoting each other at once must not leave
 * none). SQLite serialises write transactions already. False when there is no such organization.
 */
export async function lockOrganization(tx: Kysely<DB>, id: string): Promise<boolean> {
  let q = tx.selectFrom("organizations").select("id").where("id", "=", id);
  if (tx.getExecutor().adapter instanceof PostgresAdapter) q = q.forUpdate();
  return (await q.executeTakeFirst()) !== undefined;
}

export async function updateOrganization(db: Kysely<DB>, id: string, set: Partial<Pick<OrganizationRow, "name" | "slug" | "metadata">>, now: number): Promise<void> {
  await db.updateTable("organizations").set({ ...set, updated_at: now }).where("id", "=", id).execute();
}

export async function deleteOrganization(db: Kysely<DB>, id: string): Promise<boolean> {
  return Number((await db.deleteFrom("organizations").where("id", "=", id).executeTakeFirst()).numDeletedRows) > 0;
}

export async function listOrganizations(db: Kysely<DB>, limit: number): Promise<OrganizationRow[]> {
  return db.selectFrom("organizations").selectAll().orderBy("created_at").orderBy("id").limit(limit).execute();
}

/** The person's membership of one organization (on any of their login methods). */
export async function findMembership(db: Kysely<DB>, organizationId: string, personId: string): Promise<MemberRow | undefined> {
  return db.selectFrom("organization_members").selectAll().where("organization_id", "=", organizationId)
    .where("user_id", "in", personRows(db, personId)).orderBy("created_at").executeTakeFirst();
}

/** The person's organizations with their role there, oldest membership first. */
export async function findPersonOrganizations(db: Kysely<DB>, personId: string): Promise<Array<OrganizationRow & { role: string; active_at: number | null; joined_at: number }>> {
  return db.selectFrom("organization_members as m").innerJoin("organizations as o", "o.id", "m.organization_id")
    .selectAll("o").select(["m.role", "m.active_at", "m.created_at as joined_at"])
    .where("m.user_id", "in", personRows(db, personId)).orderBy("m.created_at").orderBy("o.id").execute();
}

/** The organization the person made active last (undefined: none, or no membership left). */
export async function findActiveMembership(db: Kysely<DB>, personId: string): Promise<(MemberRow & { slug: string }) | undefined> {
  return (await activeMembershipQuery(db, personId)).rows[0];
}

// Every sign-in, sign-up and refresh builds the organization claim with this (store/prepared.ts).
const activeMembershipQuery = prepareQuery<[string], MemberRow & { slug: string }>(1, (db, personId) =>
  db.selectFrom("organization_members as m").innerJoin("organizations as o", "o.id", "m.organization_id")
    .selectAll("m").select("o.slug")
    .where("m.user_id", "in", personRows(db, personId)).where("m.active_at", "is not", null)
    .orderBy("m.active_at", "desc").orderBy("m.organization_id").limit(1));

export async function insertMember(db: Kysely<DB>, row: MemberRow): Promise<void> {
  await db.insertInto("organization_members").values(row).execute();
}

export async function setMemberRole(db: Kysely<DB>, organizationId: string, userId: string, role: string): Promise<void> {
  await db.updateTable("organization_members").set({ role }).where("organization_id", "=", organizationId).where("user_id", "=", userId).execute();
}

/**
 * Makes the membership the person's active one: its `active_at` becomes later than any other of
 * theirs (now, or one past the latest when two switches fall in the same millisecond).
 */
export async function setMemberActive(db: Kysely<DB>, organizationId: string, userId: string, personId: string, now: number): Promise<void> {
  const r = await db.selectFrom("organization_members").select(sql<number | null>`max(active_at)`.as("latest")).where("user_id", "in", personRows(db, personId)).executeTakeFirst();
  const at = Math.max(now, Number(r?.latest ?? 0) + 1);
  await db.updateTable("organization_members").set({ active_at: at }).where("organization_id", "=", organizationId).where("user_id", "=", userId).execute();
}

export async function deleteMember(db: Kysely<DB>, organizationId: string, userId: string): Promise<boolean> {
  return Number((await db.deleteFrom("organization_members").where("organization_id", "=", organizationId).where("user_id", "=", userId).executeTakeFirst()).numDeletedRows) > 0;
}

/** How many members hold `role` (the owners left). */
export async function countRole(db: Kysely<DB>, organizationId: string, role: string): Promise<number> {
  const r = await db.selectFrom("organization_members").select(sql<number>`count(*)`.as("n")).where("organization_id", "=", organizationId).where("role", "=", role).executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** How many members the organization has. */
export async function countMembers(db: Kysely<DB>, organizationId: string): Promise<number> {
  const r = await db.selectFrom("organization_members").select(sql<number>`count(*)`.as("n")).where("organization_id", "=", organizationId).executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** The members with their person's primary address, oldest first. */
export async function listMembers(db: Kysely<DB>, organizationId: string, limit: number): Promise<Array<{ user_id: string; email: string; role: string; created_at: number }>> {
  return db.selectFrom("organization_members as m").innerJoin("users as u", "u.id", "m.user_id")
    .select(["m.user_id", "u.email", "m.role", "m.created_at"])
    .where("m.organization_id", "=", organizationId).orderBy("m.created_at").orderBy("m.user_id").limit(limit).execute();
}

export async function insertInvitation(db: Kysely<DB>, row: InvitationRow): Promise<void> {
  await db.insertInto("organization_invitations").values(row).execute();
}

export async function findInvitation(db: Kysely<DB>, organizationId: string, id: string): Promise<InvitationRow | undefined> {
  return db.selectFrom("organization_invitations").selectAll().where("organization_id", "=", organizationId).where("id", "=", id).executeTakeFirst();
}

export async function findInvitationByHash(db: Kysely<DB>, tokenHash: string): Promise<InvitationRow | undefined> {
  return db.selectFrom("organization_invitations").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst();
}

/** The open (not accepted, not revoked, unexpired) invitation of an address, if any. */
export async function findOpenInvitation(db: Kysely<DB>, organizationId: string, email: string, now: number): Promise<InvitationRow | undefined> {
  return db.selectFrom("organization_invitations").selectAll().where("organization_id", "=", organizationId).where("email", "=", email)
    .where("accepted_at", "is", null).where("revoked_at", "is", null).where("expires_at", ">", now).executeTakeFirst();
}

/** The organization's invitations still open, newest first. */
export async function listOpenInvitations(db: Kysely<DB>, organizationId: string, now: number, limit: number): Promise<InvitationRow[]> {
  return db.selectFrom("organization_invitations").selectAll().where("organization_id", "=", organizationId)
    .where("accepted_at", "is", null).where("revoked_at", "is", null).where("expires_at", ">", now)
    .orderBy("created_at", "desc").orderBy("id").limit(limit).execute();
}

/**
 * Marks an open invitation accepted, only if it still is (the single-use check and the write in
 * one statement, so of two concurrent accepts exactly one changes a row).
 */
export async function markAccepted(db: Kysely<DB>, id: string, userId: string, now: number): Promise<boolean> {
  const r = await db.updateTable("organization_invitations").set({ accepted_at: now, accepted_by: userId }).where("id", "=", id)
    .where("accepted_at", "is", null).where("revoked_at", "is", null).where("expires_at", ">", now).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function markRevoked(db: Kysely<DB>, id: string, now: number): Promise<boolean> {
  const r = await db.updateTable("organization_invitations").set({ revoked_at: now }).where("id", "=", id)
    .where("accepted_at", "is", null).where("revoked_at", "is", null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** A resend: a new token (the old link stops working) and a new expiry. */
export async function renewInvitation(db: Kysely<DB>, id: string, tokenHash: string, expiresAt: number, now: number): Promise<void> {
  await db.updateTable("organization_invitations").set({ token_hash: tokenHash, expires_at: expiresAt, sent_at: now }).where("id", "=", id).execute();
}

/** The person has no active organization any more. */
export async function clearActive(db: Kysely<DB>, personId: string): Promise<void> {
  await db.updateTable("organization_members").set({ active_at: null }).where("user_id", "in", personRows(db, personId)).execute();
}

export async function findDomain(db: Kysely<DB>, domain: string): Promise<DomainRow | undefined> {
  return db.selectFrom("organization_domains").selectAll().where("domain", "=", domain).executeTakeFirst();
}

/** Adds the domain, or gives it another role when the organization has it already. */
export async function upsertDomain(db: Kysely<DB>, row: DomainRow): Promise<void> {
  await db.insertInto("organization_domains").values(row).onConflict((oc) => oc.column("domain").doUpdateSet({ role: row.role, verified_by: row.verified_by })).execute();
}

export async function deleteDomain(db: Kysely<DB>, organizationId: string, domain: string): Promise<boolean> {
  return Number((await db.deleteFrom("organization_domains").where("organization_id", "=", organizationId).where("domain", "=", domain).executeTakeFirst()).numDeletedRows) > 0;
}

export async function listDomains(db: Kysely<DB>, organizationId: string): Promise<DomainRow[]> {
  return db.selectFrom("organization_domains").selectAll().where("organization_id", "=", organizationId).orderBy("domain").execute();
}

/** The organizations that proved any of these domains, with the domain and its role. */
export async function findDomainOrganizations(db: Kysely<DB>, domains: readonly string[]): Promise<Array<OrganizationRow & { domain: string; domain_role: string }>> {
  if (domains.length === 0) return [];
  return db.selectFrom("organization_domains as d").innerJoin("organizations as o", "o.id", "d.organization_id")
    .selectAll("o").select(["d.domain", "d.role as domain_role"]).where("d.domain", "in", domains).orderBy("o.created_at").orderBy("o.id").execute();
}
