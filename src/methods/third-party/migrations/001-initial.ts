import type { Kysely } from "kysely";

/** Providers' identities of the first release: part of the migration 001-initial (store/migrations/index.ts composes it). */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("third_party_identities").ifNotExists()
    .addColumn("provider_id", "text", (c) => c.notNull())
    .addColumn("provider_user_id", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("updated_at", ms, (c) => c.notNull())
    .addPrimaryKeyConstraint("third_party_identities_pk", ["provider_id", "provider_user_id"])
    .execute();
  await db.schema.createIndex("third_party_identities_user_idx").ifNotExists().on("third_party_identities").column("user_id").execute();
  await db.schema.createIndex("third_party_identities_email_idx").ifNotExists().on("third_party_identities").column("email").execute();
}
