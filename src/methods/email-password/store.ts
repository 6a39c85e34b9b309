import type { Kysely, Selectable } from "kysely";
import { prepareQuery } from "../../store/prepared.js";
import type { DB } from "../../store/schema.js";
import type { EmailPasswordCredentialsTable } from "./tables.js";

export type CredentialRow = Selectable<EmailPasswordCredentialsTable>;

/** Inserts an email/password credential; throws a unique violation if the email has one already. */
export async function insertCredential(db: Kysely<DB>, row: CredentialRow): Promise<void> {
  await insertCredentialQuery(db, row.user_id, row.email, row.password_hash, row.created_at, row.updated_at);
}

// Every password sign-up inserts one (store/prepared.ts).
const insertCredentialQuery = prepareQuery<[string, string, string, number, number], unknown>(5, (db, user_id, email, password_hash, created_at, updated_at) =>
  db.insertInto("email_password_credentials").values({ user_id, email, password_hash, created_at, updated_at }));

export async function findCredentialByEmail(db: Kysely<DB>, email: string): Promise<CredentialRow | undefined> {
  return (await credentialByEmailQuery(db, email)).rows[0];
}

// Every sign-in and sign-up looks the address up (store/prepared.ts).
const credentialByEmailQuery = prepareQuery<[string], CredentialRow>(1, (db, email) =>
  db.selectFrom("email_password_credentials").selectAll().where("email", "=", email));

export async function findCredentialByUserId(db: Kysely<DB>, userId: string): Promise<CredentialRow | undefined> {
  return db.selectFrom("email_password_credentials").selectAll().where("user_id", "=", userId).executeTakeFirst();
}

export async function updatePasswordHash(db: Kysely<DB>, userId: string, hash: string, now: number): Promise<void> {
  await db.updateTable("email_password_credentials").set({ password_hash: hash, updated_at: now }).where("user_id", "=", userId).execute();
}

/** Replaces a hash only if it is still the one that was verified (a concurrent change wins). */
export async function replacePasswordHash(db: Kysely<DB>, userId: string, oldHash: string, newHash: string, now: number): Promise<void> {
  await db.updateTable("email_password_credentials").set({ password_hash: newHash, updated_at: now })
    .where("user_id", "=", userId).where("password_hash", "=", oldHash).execute();
}
