import { parseLimitSpec } from "../util/limit-spec.js";
import { insertEvent } from "../store/events.js";
import * as counters from "../store/limits.js";
import type { CoreContext } from "./context.js";
import { canonicalEmail } from "./emails.js";
import { bucketSettings, ipKey, type BucketName, isFailureBucket } from "./limits.js";

/** A live counter as `authsvc limits list` shows it. */
export interface LimitView {
  bucket: string;
  key: string;
  count: number;
  /** The bucket's budget (for signin-failures: the failures that lock); undefined when the bucket is off. */
  limit: number | undefined;
  /** True while the key is refused (over its budget, or waiting out a sign-in delay or lock). */
  limited: boolean;
  /**
   * locked: signin-failures at its cap; delayed: a failed sign-in's growing wait; limited: over a
   * window's budget; counting: served, the counter only remembers.
   */
  state: "locked" | "delayed" | "limited" | "counting";
  /** When the key is served again (limited) or the counter is forgotten (not limited), epoch ms. */
  until: number;
  /** until - now: how long the lock, wait or memory still lasts. */
  remainingMs: number;
}

/** Every live counter (window open or key blocked), by bucket then key. */
export async function listLimits(ctx: CoreContext): Promise<LimitView[]> {
  const now = ctx.clock.now();
  const rows = await counters.listLiveCounters(ctx.store.db, now);
  return rows.map((r) => {
    const count = Number(r.count);
    const blocked = Number(r.blocked_until) > now;
    const setting = bucketSettings[r.bucket as BucketName] as keyof typeof ctx.config | undefined;
    const spec = setting && ctx.config.rateLimits ? parseLimitSpec(String(ctx.config[setting])) : undefined;
    const failures = r.bucket === "signin-failures";
    // Failure-counting buckets (invalid-token-ip, admin-key-ip) refuse at their limit (failures counted after the answer); the others above it.
    const over = spec !== undefined && !failures && (isFailureBucket(r.bucket) ? count >= spec.limit : count > spec.limit);
    const limited = blocked || (over && Number(r.expires_at) > now);
    // A sign-in wait lifts at the earlier of its end and the counter's memory (admitSignIn).
    const until = blocked ? Math.min(Number(r.blocked_until), failures ? Number(r.expires_at) : Infinity) : Number(r.expires_at);
    const state = !limited ? "counting" : failures ? (spec && count >= spec.limit ? "locked" : "delayed") : "limited";
    return { bucket: r.bucket, key: r.key, count, limit: spec?.limit, limited, state, until, remainingMs: until - now };
  });
}

/**
 * Lifts every counter of one address or one client IP (an IPv6 address lifts its /64), whatever the
 * bucket, and records who did it. Returns the buckets cleared.
 */
export async function clearLimits(ctx: CoreContext, target: { email: string } | { ip: string }, source = "cli"): Promise<{ key: string; buckets: string[] }> {
  const key = "email" in target ? canonicalEmail(target.email) : ipKey(target.ip);
  if (!key) throw new Error(`not an IP address: ${"ip" in target ? target.ip : ""}`);
  const now = ctx.clock.now();
  const rows = await ctx.store.writeTx(async (tx) => {
    const deleted = await counters.deleteCountersByKey(tx, key);
    if (deleted.length) await insertEvent(tx, { at: now, type: "rate_limit.cleared", userId: null, data: { key, buckets: deleted.map((d) => d.bucket).sort(), source } });
    return deleted;
  });
  return { key, buckets: rows.map((r) => r.bucket).sort() };
}

/** Deletes counters that have run out (run periodically beside the token purge). */
export async function purgeExpiredLimits(ctx: CoreContext): Promise<number> {
  const now = ctx.clock.now();
  return counters.deleteExpiredCounters(ctx.store.db, now);
}
