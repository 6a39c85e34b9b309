import type { Kysely } from "kysely";

/**
 * Passkeys (WebAuthn). `webauthn_accounts`: one passkey login (a recipe user) per address, as a
 * password login is. `webauthn_credentials`: the public keys registered to it, several per
 * login (one per device), keyed by the authenticator's credential id. `webauthn_options`: the
 * registration and sign-in challenges handed out, each used once and only until it expires.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = "bigint";
  await db.schema.createTable("webauthn_accounts").ifNotExists()
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("created_at", ms, (c) => c.notNull())
    .execute();
  await db.schema.createTable("webauthn_credentials").ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("rp_id", "text", (c) => c.notNull())
    .addColumn("public_key", "text", (c) => c.notNull())
    .addColumn("counter", ms, (c) => c.notNull())
    .addColumn("transports", "text")
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("last_used_at", ms)
    .execute();
  await db.schema.createIndex("webauthn_credentials_user_idx").ifNotExists().on("webauthn_credentials").column("user_id").execute();
  await db.schema.createTable("webauthn_options").ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("challenge", "text", (c) => c.notNull())
    .addColumn("email", "text")
    .addColumn("user_handle", "text")
    .addColumn("rp_id", "text", (c) => c.notNull())
    .addColumn("user_verification", "text", (c) => c.notNull())
    .addColumn("created_at", ms, (c) => c.notNull())
    .addColumn("expires_at", ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webauthn_options_expiry_idx").ifNotExists().on("webauthn_options").column("expires_at").execute();
}
