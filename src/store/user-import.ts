import type { Insertable, Kysely } from "kysely";
import type { DB, EventsTable, UserMetadataTable, VerifiedEmailsTable } from "./schema.js";
import type { UserRow } from "./users.js";
import type { CredentialRow } from "../methods/email-password/store.js";

/** Which of these user ids exist already. */
export async function findExistingUserIds(db: Kysely<DB>, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom("users").select("id").where("id", "in", ids).execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Which of these addresses belong to a user already (as a user's address or any login method's), with one owner each: address -> user id.
 */
export async function findAddressOwners(db: Kysely<DB>, emails: string[]): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map();
  const rows = await db.selectFrom("users").select(["email", "id as user_id"]).where("email", "in", emails)
    .union(db.selectFrom("email_password_credentials").select(["email", "user_id"]).where("email", "in", emails))
    .union(db.selectFrom("third_party_identities").select(["email", "user_id"]).where("email", "in", emails))
    .union(db.selectFrom("passwordless_users").select(["email", "user_id"]).where("email", "in", emails))
    .union(db.selectFrom("webauthn_accounts").select(["email", "user_id"]).where("email", "in", emails))
    .execute();
  return new Map(rows.map((r) => [r.email, r.user_id]));
}

/** Which of these (provider, provider user) pairs exist already, as "provider\nuser" keys, with the user each belongs to. */
export async function findExistingIdentities(db: Kysely<DB>, pairs: Array<{ providerId: string; providerUserId: string }>): Promise<Map<string, string>> {
  if (pairs.length === 0) return new Map();
  const rows = await db.selectFrom("third_party_identities").select(["provider_id", "provider_user_id", "user_id"])
    .where("provider_user_id", "in", [...new Set(pairs.map((p) => p.providerUserId))]).execute();
  return new Map(rows.map((r) => [`${r.provider_id}\n${r.provider_user_id}`, r.user_id]));
}

export interface ImportRows {
  users: UserRow[];
  credentials: CredentialRow[];
  identities: Insertable<DB["third_party_identities"]>[];
  passwordless: Insertable<DB["passwordless_users"]>[];
  verified: Insertable<VerifiedEmailsTable>[];
  metadata: Insertable<UserMetadataTable>[];
  totp: Insertable<DB["totp_devices"]>[];
  events: Insertable<EventsTable>[];
}

// Rows per INSERT: keeps every statement well under SQLite's 32,766 bound parameters.
const CHUNK = 1000;

/** Inserts a batch of users with everything attached, as multi-row INSERTs (inside the caller's transaction). */
export async function insertImportRows(db: Kysely<DB>, rows: ImportRows): Promise<void> {
  const insert = async <T extends keyof DB>(table: T, values: Insertable<DB[T]>[]) => {
    for (let i = 0; i < values.length; i += CHUNK) await db.insertInto(table).values(values.slice(i, i + CHUNK) as never).execute();
  };
  await insert("users", rows.users);
  await insert("email_password_credentials", rows.credentials);
  await insert("third_party_identities", rows.identities);
  await insert("passwordless_users", rows.passwordless);
  await insert("verified_emails", rows.verified);
  await insert("user_metadata", rows.metadata);
  await insert("totp_devices", rows.totp);
  await insert("events", rows.events);
}
