import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import * as orgs from "../organizations/store.js";

/**
 * The organizations room's rows that routing and "SSO required" read, in one place: the
 * organization a proven domain belongs to, an organization by id or slug, and its lock. (The
 * room-import refactor moves these onto the memberships interface of the core context.)
 */
export async function organizationOfDomain(db: Kysely<DB>, domain: string): Promise<{ id: string; name: string } | undefined> {
  const d = await orgs.findDomain(db, domain);
  if (!d) return undefined;
  const o = await orgs.findOrganization(db, d.organization_id);
  return o ? { id: o.id, name: o.name } : undefined;
}

export async function organizationByRef(db: Kysely<DB>, ref: string): Promise<{ id: string; slug: string; name: string } | undefined> {
  return (await orgs.findOrganization(db, ref)) ?? (await orgs.findOrganizationBySlug(db, ref));
}

export const lockOrganization = (tx: Kysely<DB>, id: string): Promise<boolean> => orgs.lockOrganization(tx, id);
