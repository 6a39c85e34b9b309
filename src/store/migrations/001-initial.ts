import { sql, type Kysely } from "kysely";
import type { Dialect } from "../database.js";

/**
 * The initial schema: the kernel's tables of the first release. Idempotent (IF NOT EXISTS). The
 * migration 001-initial runs `users`, then the first release's sign-in methods' tables (kept in
 * their rooms, methods/<room>/migrations/001-initial.ts), then `up` (the order index.ts composes).
 */
export async function users(db: Kysely<any>): Promise<void> {
  await db.schema.createTable("users").ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("time_joined", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("users_email_idx").ifNotExists().on("users").column("email").execute();
}

/** The kernel's other tables of the first release, after the methods' (they reference users only). */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const serial = dialect === "postgres" ? "bigserial" : "integer";
  const ms = "bigint";

  await db.schema.createTable("verified_emails").ifNotExists()
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("verified_at", ms, (c) => c.notNull())
    .addPrimaryKeyConstraint("verified_emails_pk", ["user_id", "email"])
    .execute();

  await db.schema.createTable("one_time_tokens").ifNotExists()
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("expires_at", ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("one_time_tokens_user_idx").ifNotExists().on("one_time_tokens").columns(["user_id", "purpose"]).execute();
  await db.schema.createIndex("one_time_tokens_expiry_idx").ifNotExists().on("one_time_tokens").column("expires_at").execute();

  await db.schema.createTable("sessions").ifNotExists()
    .addColumn("handle", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("expires_at", ms, (c) => c.notNull())
    .addColumn("last_refreshed_at", ms)
    .addColumn("revoked_at", ms)
    .addColumn("revoke_reason", "text")
    .execute();
  await db.schema.createIndex("sessions_user_idx").ifNotExists().on("sessions").column("user_id").execute();

  await db.schema.createTable("refresh_tokens").ifNotExists()
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("session_handle", "text", (c) => c.notNull().references("sessions.handle").onDelete("cascade"))
    .addColumn("parent_hash", "text")
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("expires_at", ms, (c) => c.notNull())
    .addColumn("rotated_at", ms)
    .execute();
  await db.schema.createIndex("refresh_tokens_session_idx").ifNotExists().on("refresh_tokens").column("session_handle").execute();

  await db.schema.createTable("signing_keys").ifNotExists()
    .addColumn("kid", "text", (c) => c.primaryKey())
    .addColumn("alg", "text", (c) => c.notNull())
    .addColumn("public_jwk", "text", (c) => c.notNull())
    .addColumn("private_jwk", "text", (c) => c.notNull())
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("retired_at", ms)
    .execute();

  await db.schema.createTable("mail_outbox").ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("headers", "text")
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text_body", "text")
    .addColumn("html_body", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", ms, (c) => c.notNull())
    .addColumn("lease_until", ms)
    .addColumn("lease_owner", "text")
    .addColumn("last_error", "text")
    .addColumn("sent_at", ms)
    .addColumn("message_id", "text")
    .addColumn("smtp_response", "text")
    .execute();
  await db.schema.createIndex("mail_outbox_due_idx").ifNotExists().on("mail_outbox").columns(["status", "next_attempt_at"]).execute();

  await db.schema.createTable("caught_mail").ifNotExists()
    .addColumn("id", serial, (c) => (dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("received_at", ms, (c) => c.notNull())
    .addColumn("mail_from", "text")
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("subject", "text")
    .addColumn("text_body", "text")
    .addColumn("html_body", "text")
    .addColumn("headers", "text")
    .execute();
  await db.schema.createIndex("caught_mail_received_idx").ifNotExists().on("caught_mail").column("received_at").execute();

  await db.schema.createTable("events").ifNotExists()
    .addColumn("id", serial, (c) => (dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("at", ms, (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("user_id", "text")
    .addColumn("data", "text")
    .execute();
  await db.schema.createIndex("events_type_idx").ifNotExists().on("events").columns(["type", "at"]).execute();
  await db.schema.createIndex("events_user_idx").ifNotExists().on("events").column("user_id").execute();

  // The audit log is append-only: the database itself refuses updates and deletes.
  if (dialect === "sqlite") {
    await sql`create trigger if not exists events_no_update before update on events begin select raise(abort, 'events are append-only'); end`.execute(db);
    await sql`create trigger if not exists events_no_delete before delete on events begin select raise(abort, 'events are append-only'); end`.execute(db);
  } else {
    await sql`create or replace function authsvc_events_append_only() returns trigger language plpgsql as $$ begin raise exception 'events are append-only'; end $$`.execute(db);
    await sql`drop trigger if exists events_append_only on events`.execute(db);
    await sql`create trigger events_append_only before update or delete on events for each row execute function authsvc_events_append_only()`.execute(db);
  }
}
