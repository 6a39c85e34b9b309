import type { Kysely } from "kysely";

/**
 * "SSO required" per organization (src/sso/sso-required.ts): while `sso_required` is 1, an address
 * at one of the organization's proven domains signs in only through one of its connections (a
 * password, a code or link, a passkey or another provider is refused). A row of its own, not a
 * column of `organizations`: the setting is the sso room's. Deleting the organization takes it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable("sso_settings").ifNotExists()
    .addColumn("organization_id", "text", (c) => c.primaryKey().references("organizations.id").onDelete("cascade"))
    .addColumn("sso_required", "integer", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
}
