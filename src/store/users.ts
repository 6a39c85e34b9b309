import type { Kysely, Selectable } from "kysely";
import type { DB, UsersTable, EmailPasswordCredentialsTable } from "./schema.js";
import type { IdentityRow } from "./third-party.js";

export type UserRow = Selectable<UsersTable>;
export type CredentialRow = Selectable<EmailPasswordCredentialsTable>;

/** Inserts a user row. */
export async function insertUser(db: Kysely<DB>, row: UserRow): Promise<void> {
  await db.insertInto("users").values(row).execute();
}

/** Inserts an email/password credential; throws a unique violation if the email has one already. */
export async function insertCredential(db: Kysely<DB>, row: CredentialRow): Promise<void> {
  await db.insertInto("email_password_credentials").values(row).execute();
}

export async function findUserById(db: Kysely<DB>, id: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function findCredentialByEmail(db: Kysely<DB>, email: string): Promise<CredentialRow | undefined> {
  return db.selectFrom("email_password_credentials").selectAll().where("email", "=", email).executeTakeFirst();
}

export async function findCredentialByUserId(db: Kysely<DB>, userId: string): Promise<CredentialRow | undefined> {
  return db.selectFrom("email_password_credentials").selectAll().where("user_id", "=", userId).executeTakeFirst();
}

export async function findIdentitiesByUserId(db: Kysely<DB>, userId: string): Promise<IdentityRow[]> {
  return db.selectFrom("third_party_identities").selectAll().where("user_id", "=", userId).orderBy("created_at").execute();
}

export async function findIdentitiesByEmail(db: Kysely<DB>, email: string): Promise<IdentityRow[]> {
  return db.selectFrom("third_party_identities").selectAll().where("email", "=", email).orderBy("created_at").execute();
}

/** Users whose current email is `email` (several may share it: one per login method family). */
export async function findUsersByEmail(db: Kysely<DB>, email: string): Promise<UserRow[]> {
  return db.selectFrom("users").selectAll().where("email", "=", email).orderBy("time_joined").execute();
}

export async function listUsers(db: Kysely<DB>, opts: { limit: number; offset: number }): Promise<UserRow[]> {
  return db.selectFrom("users").selectAll().orderBy("time_joined").orderBy("id").limit(opts.limit).offset(opts.offset).execute();
}

export async function countUsers(db: Kysely<DB>): Promise<number> {
  const r = await db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Deletes a user; credentials, identities, tokens and sessions go with it (ON DELETE CASCADE). */
export async function deleteUser(db: Kysely<DB>, id: string): Promise<boolean> {
  const r = await db.deleteFrom("users").where("id", "=", id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function updatePasswordHash(db: Kysely<DB>, userId: string, hash: string, now: number): Promise<void> {
  await db.updateTable("email_password_credentials").set({ password_hash: hash, updated_at: now }).where("user_id", "=", userId).execute();
}

/** Replaces a hash only if it is still the one that was verified (a concurrent change wins). */
export async function replacePasswordHash(db: Kysely<DB>, userId: string, oldHash: string, newHash: string, now: number): Promise<void> {
  await db.updateTable("email_password_credentials").set({ password_hash: newHash, updated_at: now })
    .where("user_id", "=", userId).where("password_hash", "=", oldHash).execute();
}

export async function isEmailVerified(db: Kysely<DB>, userId: string, email: string): Promise<boolean> {
  const r = await db.selectFrom("verified_emails").select("user_id").where("user_id", "=", userId).where("email", "=", email).executeTakeFirst();
  return r !== undefined;
}

/** Marks (user, email) verified; a no-op when it already is. Returns true if it changed. */
export async function markEmailVerified(db: Kysely<DB>, userId: string, email: string, now: number): Promise<boolean> {
  const r = await db.insertInto("verified_emails").values({ user_id: userId, email, verified_at: now })
    .onConflict((oc) => oc.columns(["user_id", "email"]).doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}
