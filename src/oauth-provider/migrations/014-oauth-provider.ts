import type { Kysely } from "kysely";

/**
 * The OAuth 2.1 / OpenID provider (src/oauth-provider/): oidc-provider's records, and the clients
 * and resources the operator registers. Times are epoch ms.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("oauth_records").ifNotExists()
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("grant_id", "text")
    .addColumn("uid", "text")
    .addColumn("user_code", "text")
    .addColumn("account_id", "text")
    .addColumn("client_id", "text")
    .addColumn("expires_at", ms)
    .addColumn("consumed_at", ms)
    .addColumn("created_at", ms, (c) => c.notNull())
    .addPrimaryKeyConstraint("oauth_records_pk", ["model", "id"])
    .execute();
  await db.schema.createIndex("oauth_records_grant_idx").ifNotExists().on("oauth_records").column("grant_id").execute();
  await db.schema.createIndex("oauth_records_uid_idx").ifNotExists().on("oauth_records").columns(["model", "uid"]).execute();
  await db.schema.createIndex("oauth_records_user_code_idx").ifNotExists().on("oauth_records").columns(["model", "user_code"]).execute();
  await db.schema.createIndex("oauth_records_account_idx").ifNotExists().on("oauth_records").columns(["account_id", "client_id"]).execute();
  await db.schema.createIndex("oauth_records_expiry_idx").ifNotExists().on("oauth_records").column("expires_at").execute();

  await db.schema.createTable("oauth_clients").ifNotExists()
    .addColumn("client_id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("secret_hash", "text")
    .addColumn("redirect_uris", "text", (c) => c.notNull())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("resources", "text", (c) => c.notNull())
    .addColumn("grant_types", "text", (c) => c.notNull())
    .addColumn("created_at", ms, (c) => c.notNull())
    .execute();

  await db.schema.createTable("oauth_resources").ifNotExists()
    .addColumn("resource", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("created_at", ms, (c) => c.notNull())
    .execute();
}
