import type { Kysely } from "kysely";

/**
 * Enterprise sign-in per organization (src/sso/): the organization's SCIM bearer token (its
 * SHA-256 only; a new one replaces the old), the people its directory provisioned (each a member
 * of the organization) with the attributes the directory sent, and the directory's groups, which
 * give roles; its SAML connections (the IdP's entity id, sign-in URL and signing certificates from
 * its metadata) and the assertion ids each has accepted, kept until their NotOnOrAfter (replays).
 * Deleting the organization takes all of it; deleting a person takes their rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("scim_tokens").ifNotExists()
    .addColumn("organization_id", "text", (c) => c.primaryKey().references("organizations.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", ms, (c) => c.notNull())
    .execute();
  await db.schema.createTable("scim_users").ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("user_name", "text", (c) => c.notNull())
    .addColumn("external_id", "text")
    .addColumn("active", "integer", (c) => c.notNull())
    .addColumn("resource", "text", (c) => c.notNull())
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("updated_at", ms, (c) => c.notNull())
    .addUniqueConstraint("scim_users_org_name_uq", ["organization_id", "user_name"])
    .addUniqueConstraint("scim_users_org_user_uq", ["organization_id", "user_id"])
    .execute();
  await db.schema.createIndex("scim_users_user_idx").ifNotExists().on("scim_users").column("user_id").execute();
  await db.schema.createTable("scim_groups").ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("display_name", "text", (c) => c.notNull())
    .addColumn("external_id", "text")
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("updated_at", ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("scim_groups_org_idx").ifNotExists().on("scim_groups").column("organization_id").execute();
  await db.schema.createTable("scim_group_members").ifNotExists()
    .addColumn("group_id", "text", (c) => c.notNull().references("scim_groups.id").onDelete("cascade"))
    .addColumn("scim_user_id", "text", (c) => c.notNull().references("scim_users.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("scim_group_members_pk", ["group_id", "scim_user_id"])
    .execute();
  await db.schema.createIndex("scim_group_members_user_idx").ifNotExists().on("scim_group_members").column("scim_user_id").execute();
  await db.schema.createTable("sso_connections").ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("idp_entity_id", "text", (c) => c.notNull())
    .addColumn("idp_sso_url", "text", (c) => c.notNull())
    .addColumn("idp_certs", "text", (c) => c.notNull())
    .addColumn("idp_initiated", "integer", (c) => c.notNull())
    .addColumn("metadata_source", "text", (c) => c.notNull())
    .addColumn("created_at", ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sso_connections_org_idx").ifNotExists().on("sso_connections").column("organization_id").execute();
  await db.schema.createTable("saml_assertions").ifNotExists()
    .addColumn("connection_id", "text", (c) => c.notNull().references("sso_connections.id").onDelete("cascade"))
    .addColumn("assertion_id", "text", (c) => c.notNull())
    .addColumn("expires_at", ms, (c) => c.notNull())
    .addPrimaryKeyConstraint("saml_assertions_pk", ["connection_id", "assertion_id"])
    .execute();
}
