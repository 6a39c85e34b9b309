import type { Kysely } from "kysely";
import type { DB } from "./schema.js";
import type { SigningKeyRow } from "./signing-keys.js";

const count = (r: { numUpdatedRows?: bigint; numDeletedRows?: bigint }) => Number(r.numUpdatedRows ?? r.numDeletedRows ?? 0);

/** Revokes every live session (all of their refresh tokens stop working). Returns how many. */
export async function revokeAllLiveSessions(db: Kysely<DB>, now: number, reason: string): Promise<number> {
  return count(await db.updateTable("sessions").set({ revoked_at: now, revoke_reason: reason }).where("revoked_at", "is", null).executeTakeFirst());
}

/** Deletes every outstanding one-time token (verification, reset). Returns how many. */
export async function deleteAllOneTimeTokens(db: Kysely<DB>): Promise<number> {
  return count(await db.deleteFrom("one_time_tokens").executeTakeFirst());
}

/** Gives up on every mail still waiting, with its bodies (links with tokens) scrubbed. Returns how many. */
export async function abandonPendingMail(db: Kysely<DB>, reason: string): Promise<number> {
  return count(await db.updateTable("mail_outbox").set({ status: "failed", last_error: reason, text_body: null, html_body: null, lease_until: null, lease_owner: null })
    .where("status", "=", "pending").executeTakeFirst());
}

/** The key that signs now (the newest not retired), as listSigningKeys orders them. */
export async function findCurrentSigningKey(db: Kysely<DB>): Promise<SigningKeyRow | undefined> {
  return db.selectFrom("signing_keys").selectAll().where("retired_at", "is", null)
    .orderBy("created_at", "desc").orderBy("kid", "desc").limit(1).executeTakeFirst();
}
