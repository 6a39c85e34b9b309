import type { Kysely } from "kysely";

/**
 * Roles and permissions, per-user metadata, and what the self-service account page needs:
 * - `roles` / `role_permissions`: a role is a name with a set of permission strings;
 * - `user_roles`: roles given to a person (the `sub` of the token); deleting the user or the role
 *   takes the assignment with it;
 * - `user_metadata`: one JSON object per person for the app;
 * - `sessions.client_ip` / `sessions.user_agent`: where a session was started, shown on "My account";
 * - `account_deletions`: a self-service deletion waiting out its grace period, with the hash of the
 *   token in the mail that cancels it.
 * Tables are IF NOT EXISTS; the two columns are added once, like 005's (the migration runs once,
 * in its transaction, under the migrator's lock).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("roles").ifNotExists()
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("created_at", ms, (c) => c.notNull())
    .execute();
  await db.schema.createTable("role_permissions").ifNotExists()
    .addColumn("role", "text", (c) => c.notNull().references("roles.name").onDelete("cascade"))
    .addColumn("permission", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("role_permissions_pk", ["role", "permission"])
    .execute();
  await db.schema.createTable("user_roles").ifNotExists()
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull().references("roles.name").onDelete("cascade"))
    .addColumn("created_at", ms, (c) => c.notNull())
    .addPrimaryKeyConstraint("user_roles_pk", ["user_id", "role"])
    .execute();
  await db.schema.createIndex("user_roles_role_idx").ifNotExists().on("user_roles").column("role").execute();
  await db.schema.createTable("user_metadata").ifNotExists()
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("updated_at", ms, (c) => c.notNull())
    .execute();
  await db.schema.alterTable("sessions").addColumn("client_ip", "text").execute();
  await db.schema.alterTable("sessions").addColumn("user_agent", "text").execute();
  await db.schema.createTable("account_deletions").ifNotExists()
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("requested_at", ms, (c) => c.notNull())
    .addColumn("delete_at", ms, (c) => c.notNull())
    .addColumn("cancel_token_hash", "text", (c) => c.notNull().unique())
    .execute();
  await db.schema.createIndex("account_deletions_due_idx").ifNotExists().on("account_deletions").column("delete_at").execute();
}
