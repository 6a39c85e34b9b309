import { PostgresAdapter, sql, type Kysely } from "kysely";
import { prepareQuery } from "./prepared.js";
import type { DB } from "./schema.js";

/**
 * People (account linking): a users row is one login method's user (the "recipe user"); the person
 * is `primary_user_id`, or the row itself when that is NULL. No rules here, only the reads and
 * writes core/linking.ts needs.
 */

/**
 * Inside a write transaction on PostgreSQL, waits for and holds (until commit) a lock on one address,
 * so two transactions that decide about the same address (a password sign-up and a provider's
 * sign-in at the same moment) decide one after the other, the second seeing the first's rows. Under
 * READ COMMITTED nothing else would stop both from finding "no one has it" and both creating a
 * person. SQLite runs one write transaction at a time already; outside a transaction there is
 * nothing to hold.
 */
export async function lockAddress(db: Kysely<DB>, email: string): Promise<void> {
  if (!db.isTransaction || !(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${email}, 0))`.execute(db);
}

/** The person a recipe user belongs to, or undefined when the row does not exist. */
export async function findPersonId(db: Kysely<DB>, recipeUserId: string): Promise<string | undefined> {
  const r = (await personIdQuery(db, recipeUserId)).rows[0];
  return r ? (r.primary_user_id ?? r.id) : undefined;
}

// Every sign-in, sign-up and refresh runs these: built and compiled once (prepared.ts).
const personIdQuery = prepareQuery<[string], { id: string; primary_user_id: string | null }>(1, (db, id) =>
  db.selectFrom("users").select(["id", "primary_user_id"]).where("id", "=", id));
const memberIdsQuery = prepareQuery<[string], { id: string; time_joined: number }>(1, (db, personId) =>
  db.selectFrom("users").select(["id", "time_joined"])
    .where((eb) => eb.or([eb("id", "=", personId), eb("primary_user_id", "=", personId)]))
    .orderBy("time_joined").orderBy("id"));

/** Every recipe user id of a person (the person's own row first), oldest first after it. */
export async function findPersonMemberIds(db: Kysely<DB>, personId: string): Promise<string[]> {
  const { rows } = await memberIdsQuery(db, personId);
  return rows.map((r) => r.id).sort((a, b) => (a === personId ? -1 : b === personId ? 1 : 0));
}

export interface PersonWithEmail {
  personId: string;
  /** Whether any of the person's methods has the address verified (it counts for the person). */
  verified: boolean;
}

/**
 * The people who have `email` on a login method (their users row, or one of `loginUserIds`: the
 * logins with that address, core/logins.ts findPeopleByAddress), each with whether the address is
 * verified on any of their methods.
 */
export async function findPeopleByEmail(db: Kysely<DB>, email: string, loginUserIds: readonly string[]): Promise<PersonWithEmail[]> {
  const rows = await db.selectFrom("users as u")
    .select([sql<string>`coalesce(u.primary_user_id, u.id)`.as("person_id")])
    .where((eb) => (loginUserIds.length > 0 ? eb.or([eb("u.email", "=", email), eb("u.id", "in", [...loginUserIds])]) : eb("u.email", "=", email)))
    .execute();
  const ids = [...new Set(rows.map((r) => r.person_id))];
  if (ids.length === 0) return [];
  const verified = await db.selectFrom("verified_emails as v").innerJoin("users as u", "u.id", "v.user_id")
    .select([sql<string>`coalesce(u.primary_user_id, u.id)`.as("person_id")])
    .where("v.email", "=", email).where(sql<string>`coalesce(u.primary_user_id, u.id)`, "in", ids).execute();
  const verifiedIds = new Set(verified.map((r) => r.person_id));
  return ids.sort().map((personId) => ({ personId, verified: verifiedIds.has(personId) }));
}

/** Whether any method of the person has `email` verified. */
export async function isVerifiedForPerson(db: Kysely<DB>, personId: string, email: string): Promise<boolean> {
  return (await verifiedForPersonQuery(db, email, personId)).rows.length > 0;
}

const verifiedForPersonQuery = prepareQuery<[string, string], { user_id: string }>(2, (db, email, personId) =>
  db.selectFrom("verified_emails as v").innerJoin("users as u", "u.id", "v.user_id").select("v.user_id")
    .where("v.email", "=", email)
    .where((eb) => eb.or([eb("u.id", "=", personId), eb("u.primary_user_id", "=", personId)]))
    .limit(1));

/**
 * Moves every recipe user of person `fromPersonId` to person `toPersonId`, with their sessions
 * staying put (sessions name the recipe user; the access token's `sub` follows at the next refresh).
 */
export async function movePerson(db: Kysely<DB>, fromPersonId: string, toPersonId: string, now: number): Promise<void> {
  await db.updateTable("users").set({ primary_user_id: toPersonId, updated_at: now })
    .where((eb) => eb.or([eb("id", "=", fromPersonId), eb("primary_user_id", "=", fromPersonId)])).execute();
}

/** Makes a recipe user a person of its own again. */
export async function detachRecipeUser(db: Kysely<DB>, recipeUserId: string, now: number): Promise<void> {
  await db.updateTable("users").set({ primary_user_id: null, updated_at: now }).where("id", "=", recipeUserId).execute();
}

/** Makes `newPersonId` the person of every other member of `oldPersonId` (when the person's own row leaves). */
export async function rehomeMembers(db: Kysely<DB>, oldPersonId: string, newPersonId: string, now: number): Promise<void> {
  await db.updateTable("users").set({ primary_user_id: null, updated_at: now }).where("id", "=", newPersonId).execute();
  await db.updateTable("users").set({ primary_user_id: newPersonId, updated_at: now })
    .where("primary_user_id", "=", oldPersonId).where("id", "!=", newPersonId).execute();
}

/** Whether any login method of the person has any address verified (SuperTokens: it may become primary). */
export async function hasVerifiedAddress(db: Kysely<DB>, personId: string): Promise<boolean> {
  const r = await db.selectFrom("verified_emails as v").innerJoin("users as u", "u.id", "v.user_id").select("v.user_id")
    .where((eb) => eb.or([eb("u.id", "=", personId), eb("u.primary_user_id", "=", personId)]))
    .executeTakeFirst();
  return r !== undefined;
}

/** The person's verified addresses, with the login method that has each, the person's own row first. */
export async function findVerifiedAddresses(db: Kysely<DB>, personId: string): Promise<Array<{ userId: string; email: string }>> {
  const rows = await db.selectFrom("verified_emails as v").innerJoin("users as u", "u.id", "v.user_id").select(["v.user_id", "v.email", "u.time_joined"])
    .where((eb) => eb.or([eb("u.id", "=", personId), eb("u.primary_user_id", "=", personId)]))
    .orderBy("u.time_joined").orderBy("v.email").execute();
  return rows.map((r) => ({ userId: r.user_id, email: r.email })).sort((a, b) => (a.userId === personId ? -1 : b.userId === personId ? 1 : 0));
}

/**
 * When the session last proved who is behind it: its sign-in, or the newest factor it completed
 * (a second factor, or a re-authentication with one). Undefined when the session does not exist.
 */
export async function findSessionLastProof(db: Kysely<DB>, sessionHandle: string): Promise<number | undefined> {
  const s = await db.selectFrom("sessions").select("created_at").where("handle", "=", sessionHandle).executeTakeFirst();
  if (!s) return undefined;
  const f = await db.selectFrom("mfa_session_factors").select((eb) => eb.fn.max("completed_at").as("at")).where("session_handle", "=", sessionHandle).executeTakeFirst();
  return Math.max(Number(s.created_at), f?.at == null ? 0 : Number(f.at));
}
