import type { Kysely } from "kysely";

/**
 * Sessions moved in from another server (`users import --from supertokens`), so their users are not
 * signed out by the move:
 * - `moved_refresh_tokens`: the other server's refresh token of each moved session, as it kept it
 *   (SHA-256 of the SHA-256 of the token, hex). The first refresh with that token turns it into an
 *   ordinary refresh token of the session (refresh_tokens) and deletes this row.
 * - `signing_keys.moved_from`: the server a key came from (its public key verifies the access tokens
 *   it issued until they expire; its tokens carry that server's payload); NULL for ours.
 * - `moved_refresh_keys`: the key the other server encrypted its refresh tokens with, sealed under
 *   the server secret. A token issued by its last refresh, not yet confirmed there, names its parent
 *   only inside that encryption.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable("moved_refresh_tokens").ifNotExists()
    .addColumn("token_hash2", "text", (c) => c.primaryKey())
    .addColumn("session_handle", "text", (c) => c.notNull().references("sessions.handle").onDelete("cascade"))
    .addColumn("key_id", "text")
    .execute();
  await db.schema.createIndex("moved_refresh_tokens_session_idx").ifNotExists().on("moved_refresh_tokens").column("session_handle").execute();
  await db.schema.createTable("moved_refresh_keys").ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("secret_enc", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.alterTable("signing_keys").addColumn("moved_from", "text").execute();
}
