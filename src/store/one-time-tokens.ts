import type { Kysely, Selectable } from "kysely";
import type { DB, OneTimeTokensTable } from "./schema.js";

export type TokenRow = Selectable<OneTimeTokensTable>;
export type TokenPurpose = OneTimeTokensTable["purpose"];

/** Stores a new one-time token (its hash only). */
export async function insertToken(db: Kysely<DB>, row: TokenRow): Promise<void> {
  await db.insertInto("one_time_tokens").values(row).execute();
}

/** Reads a token by hash and purpose without consuming it. */
export async function findToken(db: Kysely<DB>, tokenHash: string, purpose: TokenPurpose): Promise<TokenRow | undefined> {
  return db.selectFrom("one_time_tokens").selectAll().where("token_hash", "=", tokenHash).where("purpose", "=", purpose).executeTakeFirst();
}

/**
 * Deletes one token and returns the row it deleted. This conditional DELETE … RETURNING is what makes
 * a token single-use: of N concurrent consumers exactly one gets the row back, the rest get undefined.
 */
export async function takeToken(db: Kysely<DB>, tokenHash: string, purpose: TokenPurpose): Promise<TokenRow | undefined> {
  return db.deleteFrom("one_time_tokens").where("token_hash", "=", tokenHash).where("purpose", "=", purpose).returningAll().executeTakeFirst();
}

/** Deletes every token of a purpose for a user (optionally only those issued for one address). */
export async function deleteUserTokens(db: Kysely<DB>, userId: string, purpose: TokenPurpose, email?: string): Promise<number> {
  let q = db.deleteFrom("one_time_tokens").where("user_id", "=", userId).where("purpose", "=", purpose);
  if (email !== undefined) q = q.where("email", "=", email);
  const r = await q.executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Counts tokens of a user (tests and admin tooling). */
export async function countUserTokens(db: Kysely<DB>, userId: string, purpose?: TokenPurpose): Promise<number> {
  let q = db.selectFrom("one_time_tokens").select((eb) => eb.fn.countAll<number>().as("n")).where("user_id", "=", userId);
  if (purpose) q = q.where("purpose", "=", purpose);
  const r = await q.executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Number of live token rows and the newest creation time: changes whenever one is issued, used or purged. */
export async function tokensVersion(db: Kysely<DB>): Promise<{ count: number; newest: number }> {
  const r = await db.selectFrom("one_time_tokens").select((eb) => [eb.fn.countAll().as("n"), eb.fn.max("created_at").as("m")]).executeTakeFirst();
  return { count: Number(r?.n ?? 0), newest: Number(r?.m ?? 0) };
}
