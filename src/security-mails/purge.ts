import type { PurgeRule } from "../core/purge.js";

/** How long a device not seen again stays known: a sign-in from it after that is a new device (mailed). */
export const KNOWN_DEVICE_KEEP_MS = 365 * 24 * 3_600_000;

/** The purge's rule: devices not seen for a year are forgotten (in batches of `limit`). */
export const staleKnownDevices: PurgeRule = {
  name: "knownDevices",
  run: async (ctx, now, limit) => {
    const before = now - KNOWN_DEVICE_KEEP_MS;
    let n = 0;
    for (;;) {
      const rows = await ctx.store.db.selectFrom("known_devices").select(["person_id", "device"]).where("last_seen", "<", before).limit(limit).execute();
      if (rows.length === 0) return n;
      await ctx.store.writeTx(async (tx) => {
        for (const r of rows) {
          const d = await tx.deleteFrom("known_devices").where("person_id", "=", r.person_id).where("device", "=", r.device).where("last_seen", "<", before).executeTakeFirst();
          n += Number(d.numDeletedRows);
        }
      });
      if (rows.length < limit) return n;
    }
  },
};
