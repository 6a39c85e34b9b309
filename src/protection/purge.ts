import { inBatches, type PurgeRule } from "../core/purge.js";
import { deleteSolutions, listExpiredSolutions } from "./store.js";

/** The purge's rule for used bot-check solutions: once their challenge expired, no request can present them. */
export const expiredSolutions: PurgeRule = {
  name: "captchaSolutions",
  run: async (ctx, now, limit) => {
    let n = 0;
    await inBatches(limit, () => listExpiredSolutions(ctx.store.db, now, limit), async (ids) => {
      n += await ctx.store.writeTx((tx) => deleteSolutions(tx, ids));
    });
    return n;
  },
};
