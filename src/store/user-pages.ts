import { sql, type Kysely } from "kysely";
import type { DB } from "./schema.js";
import type { UserRow } from "./users.js";

/** A position in the (time_joined, id) order of users: the last row of the previous page. */
export interface UserKey { timeJoined: number; id: string }

/**
 * One page of users in (time_joined, id) order after `after` (keyset pagination: every page costs
 * the same however deep it is, and rows added meanwhile are neither skipped nor repeated).
 * `search` keeps users whose current email contains it (LIKE wildcards in it are matched literally).
 */
export async function listUsersAfter(db: Kysely<DB>, opts: { after?: UserKey; limit: number; search?: string; newestFirst?: boolean }): Promise<UserRow[]> {
  // People only: a login method linked into someone is listed with them (loadUserDetails).
  let q = db.selectFrom("users").selectAll().where("primary_user_id", "is", null);
  const after = opts.after;
  const past = opts.newestFirst ? "<" : ">";
  if (after) q = q.where((eb) => eb.or([eb("time_joined", past, after.timeJoined), eb.and([eb("time_joined", "=", after.timeJoined), eb("id", past, after.id)])]));
  if (opts.search) {
    const pattern = `%${opts.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where(sql<boolean>`email like ${pattern} escape '\\'`);
  }
  const order = opts.newestFirst ? "desc" : "asc";
  return q.orderBy("time_joined", order).orderBy("id", order).limit(opts.limit).execute();
}

/** What belongs to a set of people, loaded in a fixed number of queries (for pages of views and exports). */
export interface UserDetails {
  /** The rows of recipe users linked into these people (account linking). */
  members: UserRow[];
  verified: Array<{ user_id: string; email: string }>;
}

/** Linked recipe users and the verified addresses of the given people (their logins: core/logins.ts). */
export async function loadUserDetails(db: Kysely<DB>, personIds: string[]): Promise<UserDetails> {
  if (personIds.length === 0) return { members: [], verified: [] };
  const members = await db.selectFrom("users").selectAll().where("primary_user_id", "in", personIds).execute();
  const ids = [...personIds, ...members.map((m) => m.id)];
  const verified = await db.selectFrom("verified_emails").select(["user_id", "email"]).where("user_id", "in", ids).execute();
  return { members, verified };
}

/** Ids of users whose current email is this address. */
export async function findUserIdsByAnyEmail(db: Kysely<DB>, email: string): Promise<string[]> {
  return (await db.selectFrom("users").select("id").where("email", "=", email).execute()).map((r) => r.id);
}

/** The people these user ids belong to (a linked login's person, or the user itself), without repeats. */
export async function findPeopleIds(db: Kysely<DB>, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const people = await db.selectFrom("users").select(sql<string>`coalesce(primary_user_id, id)`.as("person_id"))
    .where("id", "in", [...new Set(userIds)]).execute();
  return [...new Set(people.map((r) => r.person_id))];
}

/** Removes the verified mark of (user, email). True when there was one. */
export async function unmarkEmailVerified(db: Kysely<DB>, userId: string, email: string): Promise<boolean> {
  const r = await db.deleteFrom("verified_emails").where("user_id", "=", userId).where("email", "=", email).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
