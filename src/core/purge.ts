import * as repo from "../store/purge.js";
import type { CoreContext } from "./context.js";
import { purgeExpiredLimits } from "./limits-admin.js";
import { runEvery } from "../util/run-every.js";

/** How long an ended (revoked or expired) session is kept for admins and audits before it goes. */
export const ENDED_SESSION_KEEP_MS = 7 * 86_400_000;
/** Rows per transaction: small enough that a purge never holds the write lock for long. */
export const PURGE_BATCH_SIZE = 500;

/** How many rows of each kind went: the kernel's, then each room's rule under its name. */
export type PurgeResult = { oneTimeTokens: number; sessions: number; refreshTokens: number; rateLimits: number } & Record<string, number>;

/**
 * A room's purge rule (Room.purge): deletes its rows no request can use any more at `now`, in
 * bounded batches of `limit` (inBatches, one short write transaction each); returns how many went.
 */
export interface PurgeRule {
  /** Its count's name in the result and the log (camelCase: what it removes). */
  name: string;
  run(ctx: CoreContext, now: number, limit: number): Promise<number>;
}

/**
 * Deletes what no request can use any more: one-time tokens past their expiry; sessions that ended
 * (revoked, or expired) more than ENDED_SESSION_KEEP_MS ago, with all their refresh tokens; and
 * refresh-token hashes past their own expiry (a rotated token is kept until then, because replaying
 * it is how theft is detected; after its expiry a replay is refused as unknown either way).
 * Work goes in bounded batches, one short write transaction each, with the candidates read before
 * the transaction and a turn of the event loop between batches, so requests keep flowing.
 * Then the rate-limit counters that no longer hold anything back, then each room's rules (ctx.purge:
 * sign-in codes, challenges). The audit log (events) is never touched.
 */
export async function purgeDeadData(ctx: CoreContext, opts: { batchSize?: number } = {}): Promise<PurgeResult> {
  const limit = opts.batchSize ?? PURGE_BATCH_SIZE;
  const now = ctx.clock.now();
  const endedBefore = now - ENDED_SESSION_KEEP_MS;
  const out: PurgeResult = { oneTimeTokens: 0, sessions: 0, refreshTokens: 0, rateLimits: 0 };
  await inBatches(limit, () => repo.listExpiredOneTimeTokens(ctx.store.db, now, limit), async (hashes) => {
    out.oneTimeTokens += await ctx.store.writeTx((tx) => repo.deleteExpiredOneTimeTokens(tx, hashes, now));
  });
  await inBatches(limit, () => repo.listEndedSessions(ctx.store.db, endedBefore, limit), async (handles) => {
    const r = await ctx.store.writeTx((tx) => repo.deleteEndedSessions(tx, handles, endedBefore));
    out.sessions += r.sessions;
    out.refreshTokens += r.refreshTokens;
  });
  await inBatches(limit, () => repo.listExpiredRefreshTokens(ctx.store.db, now, limit), async (hashes) => {
    out.refreshTokens += await ctx.store.writeTx((tx) => repo.deleteExpiredRefreshTokens(tx, hashes, now));
  });
  // Rate-limit counters whose window and lock have both passed (one statement: they are tiny rows).
  out.rateLimits = await purgeExpiredLimits(ctx);
  for (const rule of ctx.purge) out[rule.name] = await rule.run(ctx, now, limit);
  return out;
}

/**
 * Schedules purgeDeadData every `everyMs` (unref'd timer; one run at a time; failures logged).
 * Returns a stop function that waits for a run in progress.
 */
export function schedulePurge(ctx: CoreContext, everyMs = 3_600_000): () => Promise<void> {
  return runEvery(everyMs, () => purgeDeadData(ctx)
    .then((r) => { if (Object.values(r).some((n) => n > 0)) ctx.logger.info("purged dead tokens, sessions and rate-limit counters", { ...r }); })
    .catch((err) => ctx.logger.warn("purge failed", { err })));
}

/** Runs list → delete until a batch comes back short; yields between batches. */
export async function inBatches(limit: number, list: () => Promise<string[]>, remove: (keys: string[]) => Promise<void>): Promise<void> {
  for (;;) {
    const keys = await list();
    if (keys.length === 0) return;
    await remove(keys);
    if (keys.length < limit) return;
    await new Promise((r) => setImmediate(r));
  }
}
