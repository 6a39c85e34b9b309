import type { Kysely } from "kysely";

/**
 * Which roles organizations may hand out (src/roles/roles.ts, src/organizations/org-roles.ts): a
 * role the operator marks `organization` may be given to a member of an organization; any other
 * stays a platform role (users:delete…) that only the operator gives. Existing roles are not marked.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("roles").addColumn("organization", "integer", (c) => c.notNull().defaultTo(0)).execute();
}
