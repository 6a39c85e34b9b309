import type { Kysely } from "kysely";
import type { Dialect } from "../database.js";

/**
 * The rate-limit counters (one table for every bucket): one row per (bucket, key), changed only by
 * single-statement upserts so several instances on one database share one budget.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("rate_limits").ifNotExists()
    .addColumn("bucket", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("updated_at", ms, (c) => c.notNull())
    .addColumn("expires_at", ms, (c) => c.notNull())
    .addColumn("blocked_until", ms, (c) => c.notNull())
    .addPrimaryKeyConstraint("rate_limits_pk", ["bucket", "key"])
    .execute();
  await db.schema.createIndex("rate_limits_key_idx").ifNotExists().on("rate_limits").column("key").execute();
  await db.schema.createIndex("rate_limits_expiry_idx").ifNotExists().on("rate_limits").column("expires_at").execute();
}
