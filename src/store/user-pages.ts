import { sql, type Kysely } from "kysely";
import type { DB } from "./schema.js";
import type { UserRow } from "./users.js";
import type { CredentialRow } from "../methods/email-password/store.js";
import type { IdentityRow } from "../methods/third-party/store.js";

/** A position in the (time_joined, id) order of users: the last row of the previous page. */
export interface UserKey { timeJoined: number; id: string }

/**
 * One page of users in (time_joined, id) order after `after` (keyset pagination: every page costs
 * the same however deep it is, and rows added meanwhile are neither skipped nor repeated).
 * `search` keeps users whose current email contains it (LIKE wildcards in it are matched literally).
 */
export async function listUsersAfter(db: Kysely<DB>, opts: { after?: UserKey; limit: number; search?: string }): Promise<UserRow[]> {
  // People only: a login method linked into someone is listed with them (loadUserDetails).
  let q = db.selectFrom("users").selectAll().where("primary_user_id", "is", null);
  const after = opts.after;
  if (after) q = q.where((eb) => eb.or([eb("time_joined", ">", after.timeJoined), eb.and([eb("time_joined", "=", after.timeJoined), eb("id", ">", after.id)])]));
  if (opts.search) {
    const pattern = `%${opts.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where(sql<boolean>`email like ${pattern} escape '\\'`);
  }
  return q.orderBy("time_joined").orderBy("id").limit(opts.limit).execute();
}

/** What belongs to a set of users, loaded in a fixed number of queries (for pages of views and exports). */
export interface UserDetails {
  /** The rows of recipe users linked into these people (account linking). */
  members: UserRow[];
  credentials: CredentialRow[];
  identities: IdentityRow[];
  verified: Array<{ user_id: string; email: string }>;
  passwordless: Array<{ user_id: string; email: string; created_at: number }>;
  passkeyLogins: Array<{ user_id: string; email: string; created_at: number }>;
  /** Passkey credential ids (never their keys) of those passkey logins. */
  passkeyCredentials: Array<{ user_id: string; id: string }>;
}

/** Linked recipe users, every login method and the verified addresses of the given people. */
export async function loadUserDetails(db: Kysely<DB>, personIds: string[]): Promise<UserDetails> {
  if (personIds.length === 0) return { members: [], credentials: [], identities: [], verified: [], passwordless: [], passkeyLogins: [], passkeyCredentials: [] };
  const members = await db.selectFrom("users").selectAll().where("primary_user_id", "in", personIds).execute();
  const ids = [...personIds, ...members.map((m) => m.id)];
  const [credentials, identities, verified, passwordless, passkeyLogins, passkeyCredentials] = await Promise.all([
    db.selectFrom("email_password_credentials").selectAll().where("user_id", "in", ids).execute(),
    db.selectFrom("third_party_identities").selectAll().where("user_id", "in", ids).orderBy("created_at").execute(),
    db.selectFrom("verified_emails").select(["user_id", "email"]).where("user_id", "in", ids).execute(),
    db.selectFrom("passwordless_users").select(["user_id", "email", "created_at"]).where("user_id", "in", ids).execute(),
    db.selectFrom("webauthn_accounts").select(["user_id", "email", "created_at"]).where("user_id", "in", ids).execute(),
    db.selectFrom("webauthn_credentials").select(["user_id", "id"]).where("user_id", "in", ids).orderBy("created_at").execute(),
  ]);
  return { members, credentials, identities, verified, passwordless, passkeyLogins, passkeyCredentials };
}

/** Ids of every person an address belongs to: as current email, email/password login or third-party login. */
export async function findUserIdsByAnyEmail(db: Kysely<DB>, email: string): Promise<string[]> {
  const rows = await db.selectFrom("users").select("id").where("email", "=", email)
    .union(db.selectFrom("email_password_credentials").select("user_id as id").where("email", "=", email))
    .union(db.selectFrom("third_party_identities").select("user_id as id").where("email", "=", email))
    .execute();
  if (rows.length === 0) return [];
  const people = await db.selectFrom("users").select(sql<string>`coalesce(primary_user_id, id)`.as("person_id"))
    .where("id", "in", rows.map((r) => r.id)).execute();
  return [...new Set(people.map((r) => r.person_id))];
}

/** Removes the verified mark of (user, email). True when there was one. */
export async function unmarkEmailVerified(db: Kysely<DB>, userId: string, email: string): Promise<boolean> {
  const r = await db.deleteFrom("verified_emails").where("user_id", "=", userId).where("email", "=", email).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
