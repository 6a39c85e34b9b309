import type { Insertable, Kysely, Selectable } from "kysely";
import { prepareQuery } from "./prepared.js";
import type { DB, UsersTable } from "./schema.js";

export type UserRow = Selectable<UsersTable>;

/** Inserts a user row. */
export async function insertUser(db: Kysely<DB>, row: Insertable<UsersTable>): Promise<void> {
  await insertUserQuery(db, row.id, row.email, row.time_joined, row.updated_at, row.primary_user_id ?? null);
}

// Every sign-up of every method inserts one (prepared.ts).
const insertUserQuery = prepareQuery<[string, string, number, number, string | null], unknown>(5, (db, id, email, time_joined, updated_at, primary_user_id) =>
  db.insertInto("users").values({ id, email, time_joined, updated_at, primary_user_id }));

export async function findUserById(db: Kysely<DB>, id: string): Promise<UserRow | undefined> {
  return (await userByIdQuery(db, id)).rows[0];
}

// Every sign-in and sign-up reads the user it answers with (prepared.ts).
const userByIdQuery = prepareQuery<[string], UserRow>(1, (db, id) => db.selectFrom("users").selectAll().where("id", "=", id));

/** Users whose current email is `email` (several may share it: one per login method family). */
export async function findUsersByEmail(db: Kysely<DB>, email: string): Promise<UserRow[]> {
  return db.selectFrom("users").selectAll().where("email", "=", email).orderBy("time_joined").execute();
}

export async function listUsers(db: Kysely<DB>, opts: { limit: number; offset: number }): Promise<UserRow[]> {
  return db.selectFrom("users").selectAll().where("primary_user_id", "is", null).orderBy("time_joined").orderBy("id").limit(opts.limit).offset(opts.offset).execute();
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

export async function isEmailVerified(db: Kysely<DB>, userId: string, email: string): Promise<boolean> {
  const r = await db.selectFrom("verified_emails").select("user_id").where("user_id", "=", userId).where("email", "=", email).executeTakeFirst();
  return r !== undefined;
}

/** Marks (user, email) verified; a no-op when it already is. Returns true if it changed. */
export async function markEmailVerified(db: Kysely<DB>, userId: string, email: string, now: number): Promise<boolean> {
  const r = await markEmailVerifiedQuery(db, userId, email, now);
  return Number(r.numAffectedRows ?? 0) > 0;
}

// Every verification, and every sign-up that starts verified or joins a person (prepared.ts).
const markEmailVerifiedQuery = prepareQuery<[string, string, number], unknown>(3, (db, user_id, email, verified_at) =>
  db.insertInto("verified_emails").values({ user_id, email, verified_at }).onConflict((oc) => oc.columns(["user_id", "email"]).doNothing()));
