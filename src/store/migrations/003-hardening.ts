import type { Kysely } from "kysely";

/**
 * Indexes for the purge job (core/purge.ts): it finds expired refresh tokens and ended sessions by
 * time, in small batches, without scanning the tables. Idempotent (IF NOT EXISTS).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("refresh_tokens_expiry_idx").ifNotExists().on("refresh_tokens").column("expires_at").execute();
  await db.schema.createIndex("sessions_expiry_idx").ifNotExists().on("sessions").column("expires_at").execute();
  await db.schema.createIndex("sessions_revoked_idx").ifNotExists().on("sessions").column("revoked_at").execute();
}
