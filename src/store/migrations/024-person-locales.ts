import type { Kysely } from "kysely";

/**
 * `person_locales`: the locale a person reads their mail in (issue 48), stored when they sign up
 * (the page's locale, or the browser's Accept-Language) and when they change it on "My account".
 * One row per person (the primary user); gone with them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable("person_locales").ifNotExists()
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("locale", "text", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
}
