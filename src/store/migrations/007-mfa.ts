import type { Kysely } from "kysely";

/**
 * A second factor (issue 21), the kernel's part: which factors each session has completed (the
 * `st-mfa` claim's `c`) and which secondary factors each person requires. The migration 007-mfa
 * runs this, then the second factor room's tables (store/migrations/index.ts composes it). Rows go
 * with their session or user (cascade).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("mfa_session_factors").ifNotExists()
    .addColumn("session_handle", "text", (c) => c.notNull().references("sessions.handle").onDelete("cascade"))
    .addColumn("factor_id", "text", (c) => c.notNull())
    .addColumn("completed_at", ms, (c) => c.notNull())
    .addPrimaryKeyConstraint("mfa_session_factors_pk", ["session_handle", "factor_id"])
    .execute();

  await db.schema.createTable("mfa_required_factors").ifNotExists()
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("factor_id", "text", (c) => c.notNull())
    .addColumn("created_at", ms, (c) => c.notNull())
    .addPrimaryKeyConstraint("mfa_required_factors_pk", ["user_id", "factor_id"])
    .execute();
}
