import type { Kysely } from "kysely";

/**
 * Organizations (src/organizations/): the organizations, their members with a role each, and the
 * invitations by address (token stored as its SHA-256 only). Deleting an organization takes its
 * members and invitations with it; deleting a user takes their memberships.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("organizations").ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("metadata", "text")
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("updated_at", ms, (c) => c.notNull())
    .execute();
  await db.schema.createTable("organization_members").ifNotExists()
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("active_at", ms)
    .addPrimaryKeyConstraint("organization_members_pk", ["organization_id", "user_id"])
    .execute();
  await db.schema.createIndex("organization_members_user_idx").ifNotExists().on("organization_members").column("user_id").execute();
  await db.schema.createTable("organization_invitations").ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("invited_by", "text")
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("expires_at", ms, (c) => c.notNull())
    .addColumn("sent_at", ms, (c) => c.notNull())
    .addColumn("accepted_at", ms)
    .addColumn("accepted_by", "text")
    .addColumn("revoked_at", ms)
    .execute();
  await db.schema.createIndex("organization_invitations_org_idx").ifNotExists().on("organization_invitations").column("organization_id").execute();
}
