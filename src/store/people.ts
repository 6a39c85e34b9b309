import { PostgresAdapter, sql, type AliasedExpression, type Compilable, type Expression, type ExpressionBuilder, type Kysely, type SelectQueryNode, type SqlBool } from "kysely";
import { prepareQuery } from "./prepared.js";
import type { DB } from "./schema.js";
import type { UserRow } from "./users.js";

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

/** A select of the recipe users (`user_id`) that have one kind of login at an address: a Kysely select query. */
export type UserIdQuery = Compilable<{ user_id: string }> & Expression<{ user_id: string }> & {
  readonly isSelectQueryBuilder: true;
  as<A extends string>(alias: A): AliasedExpression<{ user_id: string }, A>;
  toOperationNode(): SelectQueryNode;
};

/**
 * The read of the people who have an address on a login method: their users row, or a login found
 * by one of `logins` (each kind's select of the recipe users at the address, core/logins.ts
 * findPeopleByAddress), each with whether the address is verified on any of their methods. One
 * statement, built and compiled once for that list of kinds (a sign-in and a sign-up run it).
 */
export function preparePeopleByEmail(logins: readonly ((db: Kysely<DB>, email: string) => UserIdQuery)[]) {
  const person = sql<string>`coalesce(u.primary_user_id, u.id)`;
  // One branch per way of having the address, united: each branch uses its own index (PostgreSQL
  // scans the whole table for an OR of subqueries). A person found twice is read once.
  const query = prepareQuery<[string], { person_id: string; verified: unknown }>(1, (db, email: string) => {
    const people = (where: (eb: ExpressionBuilder<DB & { u: DB["users"] }, "u">) => Expression<SqlBool>) => db.selectFrom("users as u")
      .select((eb) => [
        person.as("person_id"),
        // From the person's users rows to their verified rows (indexed both ways), not the other way.
        eb.exists(eb.selectFrom("users as m").innerJoin("verified_emails as v", (j) => j.onRef("v.user_id", "=", "m.id").on("v.email", "=", email)).select("v.user_id")
          .where((w) => w.or([w("m.id", "=", person), w("m.primary_user_id", "=", person)]))).as("verified"),
      ])
      .where(where);
    return logins.reduce((q, l) => q.unionAll(people((eb) => eb("u.id", "in", l(db, email)))), people((eb) => eb("u.email", "=", email)));
  });
  return async (db: Kysely<DB>, email: string): Promise<PersonWithEmail[]> => {
    const verified = new Map<string, boolean>();
    for (const r of (await query(db, email)).rows) verified.set(r.person_id, verified.get(r.person_id) === true || r.verified === true || Number(r.verified) === 1);
    return [...verified.keys()].sort().map((personId) => ({ personId, verified: verified.get(personId)! }));
  };
}

/**
 * The person a recipe user belongs to, with the rows of all of the person's recipe users: the
 * person's own row (`row`) and the others, oldest first. Undefined when the user or its person's row
 * does not exist. One statement (getUser runs it on every sign-in and sign-up).
 */
export async function findPersonRows(db: Kysely<DB>, recipeUserId: string): Promise<{ personId: string; row: UserRow; others: UserRow[] } | undefined> {
  const { rows } = await personRowsQuery(db, recipeUserId);
  const row = rows.find((r) => r.id === r.person_id);
  if (!row) return undefined;
  const strip = ({ person_id: _, ...r }: UserRow & { person_id: string }): UserRow => r;
  return { personId: row.person_id, row: strip(row), others: rows.filter((r) => r !== row).map(strip) };
}

const personRowsQuery = prepareQuery<[string], UserRow & { person_id: string }>(1, (db, id) => {
  const personOf = db.selectFrom("users as p").select(sql<string>`coalesce(p.primary_user_id, p.id)`.as("person_id")).where("p.id", "=", id);
  return db.selectFrom("users as m").selectAll("m").select(personOf.as("person_id"))
    .where((eb) => eb.or([eb("m.id", "=", personOf), eb("m.primary_user_id", "=", personOf)]))
    .orderBy("m.time_joined").orderBy("m.id");
});

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
