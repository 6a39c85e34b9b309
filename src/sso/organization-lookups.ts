import type { Kysely } from "kysely";
import type { CoreContext } from "../core/context.js";
import { membershipsOf } from "../core/memberships.js";
import type { DB } from "../store/schema.js";

/**
 * The organizations that routing and "SSO required" read, in one place, through the memberships
 * the organizations room offers (core/memberships.ts): the organization a proven domain belongs
 * to, an organization by id or slug, and its lock.
 */
export async function organizationOfDomain(ctx: Pick<CoreContext, "memberships">, db: Kysely<DB>, domain: string): Promise<{ id: string; name: string } | undefined> {
  const m = membershipsOf(ctx);
  const d = await m.findDomain(db, domain);
  if (!d) return undefined;
  const o = await m.findOrganization(db, d.organization_id);
  return o ? { id: o.id, name: o.name } : undefined;
}

export async function organizationByRef(ctx: Pick<CoreContext, "memberships">, db: Kysely<DB>, ref: string): Promise<{ id: string; slug: string; name: string } | undefined> {
  const m = membershipsOf(ctx);
  return (await m.findOrganization(db, ref)) ?? (await m.findOrganizationBySlug(db, ref));
}

export const lockOrganization = (ctx: Pick<CoreContext, "memberships">, tx: Kysely<DB>, id: string): Promise<boolean> => membershipsOf(ctx).lockOrganization(tx, id);
