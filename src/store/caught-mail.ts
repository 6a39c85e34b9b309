import type { Insertable, Kysely, Selectable } from "kysely";
import type { CaughtMailTable, DB } from "./schema.js";

export type CaughtMailRow = Selectable<CaughtMailTable>;

/** Stores one caught message (one row per envelope recipient). */
export async function insertCaughtMail(db: Kysely<DB>, row: Insertable<CaughtMailTable>): Promise<void> {
  await db.insertInto("caught_mail").values(row).execute();
}

/** Keeps the newest `keep` messages and drops those received before `olderThan`. */
export async function pruneCaughtMail(db: Kysely<DB>, opts: { keep: number; olderThan: number }): Promise<number> {
  const byAge = await db.deleteFrom("caught_mail").where("received_at", "<", opts.olderThan).executeTakeFirst();
  const edge = await db.selectFrom("caught_mail").select("id").orderBy("id", "desc").offset(opts.keep).limit(1).executeTakeFirst();
  let byCount = 0;
  if (edge) {
    const r = await db.deleteFrom("caught_mail").where("id", "<=", edge.id).executeTakeFirst();
    byCount = Number(r.numDeletedRows);
  }
  return Number(byAge.numDeletedRows) + byCount;
}

/** Caught messages with an id above `afterId` (and received at or after `since`), oldest first, optionally for one recipient. */
export async function listCaughtMail(db: Kysely<DB>, opts: { afterId?: number; since?: number; to?: string; limit?: number } = {}): Promise<CaughtMailRow[]> {
  let q = db.selectFrom("caught_mail").selectAll().orderBy("id");
  if (opts.afterId !== undefined) q = q.where("id", ">", opts.afterId);
  if (opts.since !== undefined) q = q.where("received_at", ">=", opts.since);
  if (opts.to !== undefined) q = q.where("to_address", "=", opts.to);
  return q.limit(opts.limit ?? 1000).execute();
}

/** The newest caught messages (up to `limit`), returned oldest first. */
export async function listLatestCaughtMail(db: Kysely<DB>, opts: { to?: string; limit: number }): Promise<CaughtMailRow[]> {
  let q = db.selectFrom("caught_mail").selectAll().orderBy("id", "desc");
  if (opts.to !== undefined) q = q.where("to_address", "=", opts.to);
  return (await q.limit(opts.limit).execute()).reverse();
}

/** The id of the newest caught message, 0 when there is none. */
export async function lastCaughtMailId(db: Kysely<DB>): Promise<number> {
  const r = await db.selectFrom("caught_mail").select((eb) => eb.fn.max("id").as("m")).executeTakeFirst();
  return Number(r?.m ?? 0);
}

/** One caught message by id. */
export async function findCaughtMail(db: Kysely<DB>, id: number): Promise<CaughtMailRow | undefined> {
  return db.selectFrom("caught_mail").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Deletes every caught message; returns how many. */
export async function deleteAllCaughtMail(db: Kysely<DB>): Promise<number> {
  const r = await db.deleteFrom("caught_mail").executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Newest id and number of messages: changes whenever mail arrives or is deleted (the inbox's live view). */
export async function caughtMailVersion(db: Kysely<DB>): Promise<{ lastId: number; count: number }> {
  const r = await db.selectFrom("caught_mail").select((eb) => [eb.fn.max("id").as("m"), eb.fn.countAll().as("n")]).executeTakeFirst();
  return { lastId: Number(r?.m ?? 0), count: Number(r?.n ?? 0) };
}
