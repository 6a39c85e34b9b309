import type { Kysely } from "kysely";
import { prepareQuery } from "./prepared.js";
import type { DB } from "./schema.js";

/** Records that a session completed a factor (again: the newer time wins). */
export async function upsertSessionFactor(db: Kysely<DB>, sessionHandle: string, factorId: string, at: number): Promise<void> {
  await upsertSessionFactorQuery(db, sessionHandle, factorId, at);
}

// Every sign-in, sign-up and refresh runs these (prepared.ts).
const upsertSessionFactorQuery = prepareQuery<[string, string, number], unknown>(3, (db, session_handle, factor_id, completed_at) =>
  db.insertInto("mfa_session_factors").values({ session_handle, factor_id, completed_at })
    .onConflict((oc) => oc.columns(["session_handle", "factor_id"]).doUpdateSet({ completed_at })));
const sessionFactorsQuery = prepareQuery<[string], { factor_id: string; completed_at: number }>(1, (db, handle) =>
  db.selectFrom("mfa_session_factors").select(["factor_id", "completed_at"]).where("session_handle", "=", handle));
const requiredFactorsQuery = prepareQuery<[string], { factor_id: string }>(1, (db, userId) =>
  db.selectFrom("mfa_required_factors").select("factor_id").where("user_id", "=", userId).orderBy("factor_id"));

/** The factors a session has completed, with when (ms). */
export async function findSessionFactors(db: Kysely<DB>, sessionHandle: string): Promise<Array<{ factor_id: string; completed_at: number }>> {
  const { rows } = await sessionFactorsQuery(db, sessionHandle);
  return rows.map((r) => ({ factor_id: r.factor_id, completed_at: Number(r.completed_at) }));
}

/** The secondary factors a person requires at sign-in. */
export async function findRequiredFactors(db: Kysely<DB>, userId: string): Promise<string[]> {
  const { rows } = await requiredFactorsQuery(db, userId);
  return rows.map((r) => r.factor_id);
}

/** Adds a factor to a person's requirements (no-op when there already). */
export async function addRequiredFactor(db: Kysely<DB>, userId: string, factorId: string, at: number): Promise<void> {
  await db.insertInto("mfa_required_factors").values({ user_id: userId, factor_id: factorId, created_at: at })
    .onConflict((oc) => oc.columns(["user_id", "factor_id"]).doNothing()).execute();
}

/** Adds a factor to the requirements of several people at once (an import's batch; no-op for those who have it), in INSERTs of at most 1,000 rows. */
export async function addRequiredFactorOfEach(db: Kysely<DB>, userIds: readonly string[], factorId: string, at: number): Promise<void> {
  for (let i = 0; i < userIds.length; i += 1000) {
    await db.insertInto("mfa_required_factors").values(userIds.slice(i, i + 1000).map((user_id) => ({ user_id, factor_id: factorId, created_at: at })))
      .onConflict((oc) => oc.columns(["user_id", "factor_id"]).doNothing()).execute();
  }
}

/** Removes a factor from a person's requirements; true when it was there. */
export async function removeRequiredFactor(db: Kysely<DB>, userId: string, factorId: string): Promise<boolean> {
  const r = await db.deleteFrom("mfa_required_factors").where("user_id", "=", userId).where("factor_id", "=", factorId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
