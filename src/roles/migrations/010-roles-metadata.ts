import type { Kysely } from "kysely";

/**
 * Roles and permissions, this room's part of the migration 010-roles-metadata (the first of its
 * parts, store/migrations/index.ts):
 * - `roles` / `role_permissions`: a role is a name with a set of permission strings;
 * - `user_roles`: roles given to a person (the `sub` of the token); deleting the user or the role
 *   takes the assignment with it.
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
}
