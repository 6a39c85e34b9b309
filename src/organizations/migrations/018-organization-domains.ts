import type { Kysely } from "kysely";

/**
 * Organizations' proven domains (src/organizations/domains.ts): a domain belongs to at most one
 * organization, added by the operator once they have checked the organization owns it; a person
 * with a verified address there may join with the domain's role. Deleting the organization takes
 * its domains with it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable("organization_domains").ifNotExists()
    .addColumn("domain", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("verified_by", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("organization_domains_org_idx").ifNotExists().on("organization_domains").column("organization_id").execute();
}
