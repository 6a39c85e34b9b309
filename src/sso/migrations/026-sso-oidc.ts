import type { Kysely } from "kysely";

/**
 * OpenID Connect connections beside the SAML ones (src/sso/): the client id, its secret (sealed
 * under the server secret) and scopes of an `oidc` connection; for SAML metadata read from a URL,
 * when it was last refreshed and why the last refresh failed; and the AuthnRequests each SAML
 * connection sent (their ids, the InResponseTo of the answers), kept in the database so any
 * instance, or the same one after a restart, accepts the answer, until it expires.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.alterTable("sso_connections").addColumn("client_id", "text").execute();
  await db.schema.alterTable("sso_connections").addColumn("client_secret", "text").execute();
  await db.schema.alterTable("sso_connections").addColumn("oidc_scope", "text").execute();
  await db.schema.alterTable("sso_connections").addColumn("metadata_refreshed_at", ms).execute();
  await db.schema.alterTable("sso_connections").addColumn("metadata_error", "text").execute();
  await db.schema.createTable("sso_requests").ifNotExists()
    .addColumn("connection_id", "text", (c) => c.notNull().references("sso_connections.id").onDelete("cascade"))
    .addColumn("request_id", "text", (c) => c.notNull())
    .addColumn("issued", "text", (c) => c.notNull())
    .addColumn("expires_at", ms, (c) => c.notNull())
    .addPrimaryKeyConstraint("sso_requests_pk", ["connection_id", "request_id"])
    .execute();
  await db.schema.createIndex("sso_requests_expires_idx").ifNotExists().on("sso_requests").column("expires_at").execute();
}
