import { inBatches, type PurgeRule } from "../core/purge.js";
import { deleteAuditRows, listOldAuditIds } from "./store.js";

/** The purge's rule for the audit log: entries older than --audit-retention go. */
export const oldAuditEntries: PurgeRule = {
  name: "auditEntries",
  run: async (ctx, now, limit) => {
    const before = now - ctx.config.auditRetentionMs;
    let n = 0;
    await inBatches(limit, () => listOldAuditIds(ctx.store.db, before, limit), async (ids) => {
      n += await ctx.store.writeTx((tx) => deleteAuditRows(tx, ids));
    });
    return n;
  },
};
