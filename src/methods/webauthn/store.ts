import type { Insertable, Kysely, Selectable } from "kysely";
import type { DB } from "../../store/schema.js";
import type { WebauthnAccountsTable, WebauthnCredentialsTable, WebauthnOptionsTable } from "./tables.js";

export type AccountRow = Selectable<WebauthnAccountsTable>;
export type CredentialRow = Selectable<WebauthnCredentialsTable>;
export type OptionsRow = Selectable<WebauthnOptionsTable>;

/** Stores options handed out (registration or sign-in). */
export async function insertOptions(db: Kysely<DB>, row: Insertable<WebauthnOptionsTable>): Promise<void> {
  await db.insertInto("webauthn_options").values(row).execute();
}

/** Takes options by id: deletes and returns them, so of N concurrent uses exactly one gets them. */
export async function takeOptions(db: Kysely<DB>, id: string): Promise<OptionsRow | undefined> {
  return db.deleteFrom("webauthn_options").where("id", "=", id).returningAll().executeTakeFirst();
}

/** Inserts a passkey login; throws a unique violation if the address has one already. */
export async function insertAccount(db: Kysely<DB>, row: AccountRow): Promise<void> {
  await db.insertInto("webauthn_accounts").values(row).execute();
}

export async function findAccountByEmail(db: Kysely<DB>, email: string): Promise<AccountRow | undefined> {
  return db.selectFrom("webauthn_accounts").selectAll().where("email", "=", email).executeTakeFirst();
}

export async function findAccountByUserId(db: Kysely<DB>, userId: string): Promise<AccountRow | undefined> {
  return db.selectFrom("webauthn_accounts").selectAll().where("user_id", "=", userId).executeTakeFirst();
}

/** Inserts a credential; throws a unique violation if the credential id is registered already. */
export async function insertCredential(db: Kysely<DB>, row: CredentialRow): Promise<void> {
  await db.insertInto("webauthn_credentials").values(row).execute();
}

export async function findCredential(db: Kysely<DB>, id: string): Promise<CredentialRow | undefined> {
  return db.selectFrom("webauthn_credentials").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The credentials of the given recipe users, oldest first. */
export async function listCredentials(db: Kysely<DB>, userIds: readonly string[]): Promise<CredentialRow[]> {
  if (userIds.length === 0) return [];
  return db.selectFrom("webauthn_credentials").selectAll().where("user_id", "in", userIds).orderBy("created_at").orderBy("id").execute();
}

export async function countCredentials(db: Kysely<DB>, userId: string): Promise<number> {
  const r = await db.selectFrom("webauthn_credentials").select((eb) => eb.fn.countAll<number>().as("n")).where("user_id", "=", userId).executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * Moves the counter forward only from the value that was verified: a concurrent sign-in with the
 * same credential that already moved it makes this a no-op (returns false), and that sign-in wins.
 */
export async function advanceCounter(db: Kysely<DB>, id: string, from: number, to: number, now: number): Promise<boolean> {
  const r = await db.updateTable("webauthn_credentials").set({ counter: to, last_used_at: now }).where("id", "=", id).where("counter", "=", from).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteCredential(db: Kysely<DB>, id: string): Promise<boolean> {
  const r = await db.deleteFrom("webauthn_credentials").where("id", "=", id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
