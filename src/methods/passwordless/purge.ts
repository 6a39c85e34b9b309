import type { Kysely } from "kysely";
import { inBatches, type PurgeRule } from "../../core/purge.js";
import type { DB } from "../../store/schema.js";

/** Link-code hashes of codes expired at `now`, at most `limit`. */
async function listExpiredCodes(db: Kysely<DB>, now: number, limit: number): Promise<string[]> {
  const rows = await db.selectFrom("passwordless_codes").select("link_code_hash").where("expires_at", "<=", now).limit(limit).execute();
  return rows.map((r) => r.link_code_hash);
}

/** Deletes the given codes if still expired, then the devices (flows) left without any code. */
async function deleteExpiredCodes(db: Kysely<DB>, hashes: string[], now: number): Promise<number> {
  if (hashes.length === 0) return 0;
  const r = await db.deleteFrom("passwordless_codes").where("link_code_hash", "in", hashes).where("expires_at", "<=", now).executeTakeFirst();
  await db.deleteFrom("passwordless_devices")
    .where((eb) => eb.not(eb.exists(eb.selectFrom("passwordless_codes as c").select("c.link_code_hash").whereRef("c.pre_auth_session_id", "=", "passwordless_devices.pre_auth_session_id"))))
    .execute();
  return Number(r.numDeletedRows);
}

/** The purge's rule for sign-in codes: codes past their expiry, and the flows left without a code. */
export const expiredCodes: PurgeRule = {
  name: "passwordlessCodes",
  run: async (ctx, now, limit) => {
    let n = 0;
    await inBatches(limit, () => listExpiredCodes(ctx.store.db, now, limit), async (hashes) => {
      n += await ctx.store.writeTx((tx) => deleteExpiredCodes(tx, hashes, now));
    });
    return n;
  },
};
