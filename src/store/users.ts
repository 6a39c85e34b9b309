import type { Insertable, Kysely, Selectable } from "kysely";
import { prepareQuery } from "./prepared.js";
import type { DB, UsersTable } from "./schema.js";

export type UserRow = Selectable<UsersTable>;

/** Inserts a user row. */
export async function insertUser(db: Kysely<DB>, row: Insertable<UsersTable>): Promise<void> {
  await db.insertInto("users").values(row).execute();
}

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
  const r = await db.insertInto("verified_emails").values({ user_id: userId, email, verified_at: now })
    .onConflict((oc) => oc.columns(["user_id", "email"]).doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}
