import { inBatches, type PurgeRule } from "../core/purge.js";
import type { MergePerson } from "../core/logins.js";
import { deleteBans, listExpiredBans, moveBan } from "./store.js";

/** The purge's rule for bans that lifted by themselves (their `until` passed): no check reads them any more. */
export const expiredBans: PurgeRule = {
  name: "expiredBans",
  run: async (ctx, now, limit) => {
    let n = 0;
    await inBatches(limit, () => listExpiredBans(ctx.store.db, now, limit), async (ids) => {
      n += await ctx.store.writeTx((tx) => deleteBans(tx, ids, now));
    });
    return n;
  },
};

/** Two people joined: a ban of the one joined in stays with the person they become (unless that one has its own). */
export const mergeBans: MergePerson = async (tx, _ctx, p) => ((await moveBan(tx, p.from, p.to)) ? { ban: true } : {});
