import type { Kysely, Selectable } from "kysely";
import type { DB } from "../../store/schema.js";
import type { ThirdPartyIdentitiesTable } from "./tables.js";

export type IdentityRow = Selectable<ThirdPartyIdentitiesTable>;

/** The identity (provider id, provider user id), or undefined. */
export async function findIdentity(db: Kysely<DB>, providerId: string, providerUserId: string): Promise<IdentityRow | undefined> {
  return db.selectFrom("third_party_identities").selectAll()
    .where("provider_id", "=", providerId).where("provider_user_id", "=", providerUserId).executeTakeFirst();
}

/** Inserts an identity; throws a unique violation when (provider, provider user) exists already. */
export async function insertIdentity(db: Kysely<DB>, row: IdentityRow): Promise<void> {
  await db.insertInto("third_party_identities").values(row).execute();
}

/** Stores the email a provider now reports for an identity. */
export async function updateIdentityEmail(db: Kysely<DB>, providerId: string, providerUserId: string, email: string, now: number): Promise<void> {
  await db.updateTable("third_party_identities").set({ email, updated_at: now })
    .where("provider_id", "=", providerId).where("provider_user_id", "=", providerUserId).execute();
}

/**
 * Moves a user's current email from `oldEmail` to `newEmail`; a no-op when the user's email is no
 * longer `oldEmail` (changed another way in between).
 */
export async function replaceUserEmail(db: Kysely<DB>, userId: string, oldEmail: string, newEmail: string, now: number): Promise<void> {
  await db.updateTable("users").set({ email: newEmail, updated_at: now })
    .where("id", "=", userId).where("email", "=", oldEmail).execute();
}

export async function findIdentitiesByUserId(db: Kysely<DB>, userId: string): Promise<IdentityRow[]> {
  return db.selectFrom("third_party_identities").selectAll().where("user_id", "=", userId).orderBy("created_at").execute();
}

export async function findIdentitiesByEmail(db: Kysely<DB>, email: string): Promise<IdentityRow[]> {
  return db.selectFrom("third_party_identities").selectAll().where("email", "=", email).orderBy("created_at").execute();
}
