import type { Kysely } from "kysely";

/**
 * Webhooks (src/webhooks/): the endpoints the app registered, and one delivery row per (event,
 * endpoint), written in the transaction of the event itself and sent by the leased queue worker
 * (the mail outbox's machinery: status, attempts, next_attempt_at, lease_until, lease_owner).
 * `events` is ",user.created,user.deleted," or "*", so one LIKE picks the subscribers.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("webhook_endpoints").ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("enabled", "integer", (c) => c.notNull())
    .addColumn("failure_streak", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("disabled_at", ms)
    .addColumn("disabled_reason", "text")
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("updated_at", ms, (c) => c.notNull())
    .execute();

  await db.schema.createTable("webhook_deliveries").ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("message_id", "text", (c) => c.notNull())
    .addColumn("endpoint_id", "text", (c) => c.notNull())
    .addColumn("event_type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", ms, (c) => c.notNull())
    .addColumn("lease_until", ms)
    .addColumn("lease_owner", "text")
    .addColumn("last_status", "integer")
    .addColumn("last_error", "text")
    .addColumn("last_attempt_at", ms)
    .addColumn("delivered_at", ms)
    .addColumn("replay_of", "text")
    .execute();
  await db.schema.createIndex("webhook_deliveries_due_idx").ifNotExists().on("webhook_deliveries").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("webhook_deliveries_endpoint_idx").ifNotExists().on("webhook_deliveries").columns(["endpoint_id", "created_at"]).execute();
}
