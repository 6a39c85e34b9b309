import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import "./tables.js";

/** A ban as stored (times in epoch ms). */
export interface BanRow { person_id: string; reason: string | null; until: number | null; created_at: number; source: string }

const live = (now: number) => (eb: any) => eb.or([eb("until", "is", null), eb("until", ">", now)]);

/** The person's ban in force at `now` (an expired one is no ban). */
export async function findLiveBan(db: Kysely<DB>, personId: string, now: number): Promise<BanRow | undefined> {
  const r = await db.selectFrom("person_bans").selectAll().where("person_id", "=", personId).where(live(now)).executeTakeFirst();
  return r && normal(r);
}

/** Every ban in force at `now`: the person gate's memory (a short list: people banned now). */
export async function listLiveBans(db: Kysely<DB>, now: number): Promise<Array<{ person_id: string; until: number | null }>> {
  const rows = await db.selectFrom("person_bans").select(["person_id", "until"]).where(live(now)).execute();
  return rows.map((r) => ({ person_id: r.person_id, until: r.until === null ? null : Number(r.until) }));
}

/** Writes the person's ban, replacing an earlier one (a new reason or end). */
export async function putBan(tx: Kysely<DB>, row: BanRow): Promise<void> {
  await tx.deleteFrom("person_bans").where("person_id", "=", row.person_id).execute();
  await tx.insertInto("person_bans").values(row).execute();
}

/** Lifts the person's ban; true when one was in force. */
export async function deleteBan(tx: Kysely<DB>, personId: string, now: number): Promise<boolean> {
  const wasLive = (await findLiveBan(tx, personId, now)) !== undefined;
  await tx.deleteFrom("person_bans").where("person_id", "=", personId).execute();
  return wasLive;
}

/** Bans that lifted by themselves before `now` (the purge's candidates). */
export async function listExpiredBans(db: Kysely<DB>, now: number, limit: number): Promise<string[]> {
  return (await db.selectFrom("person_bans").select("person_id").where("until", "<=", now).limit(limit).execute()).map((r) => r.person_id);
}

export async function deleteBans(tx: Kysely<DB>, personIds: readonly string[], now: number): Promise<number> {
  if (personIds.length === 0) return 0;
  const r = await tx.deleteFrom("person_bans").where("person_id", "in", personIds).where("until", "<=", now).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Moves a ban to the person `to` (a join) unless `to` has one. */
export async function moveBan(tx: Kysely<DB>, from: string, to: string): Promise<boolean> {
  const has = await tx.selectFrom("person_bans").select("person_id").where("person_id", "=", to).executeTakeFirst();
  if (has) {
    await tx.deleteFrom("person_bans").where("person_id", "=", from).execute();
    return false;
  }
  const r = await tx.updateTable("person_bans").set({ person_id: to }).where("person_id", "=", from).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

const normal = (r: BanRow): BanRow => ({ ...r, until: r.until === null ? null : Number(r.until), created_at: Number(r.created_at) });
