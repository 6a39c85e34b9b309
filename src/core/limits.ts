import ipaddr from "ipaddr.js";
import { type Config } from "../config/types.js";
import { parseLimitSpec, type LimitSpec } from "../util/limit-spec.js";
import { insertEvent } from "../store/events.js";
import * as counters from "../store/limits.js";
import * as users from "../store/users.js";
import type { CoreContext } from "./context.js";
import { canonicalEmail } from "./emails.js";
import { AuthError } from "./errors.js";

/**
 * Rate limits: which buckets exist, what they allow, and the decisions. No HTTP here: callers pass
 * the key (a canonical address, or a client IP through ipKey). State lives in the rate_limits table,
 * changed by one atomic upsert per decision, so instances sharing a database share one budget and a
 * restart forgets nothing. docs/security.md "Rate limits" is the table of these buckets.
 */
export type WindowBucket =
  | "signin-ip" | "signup-ip" | "email-exists-ip" | "refresh-ip" | "signinup-ip"
  | "mail-ip" | "reset-cooldown" | "verify-cooldown" | "mail-hourly" | "token-ip" | "invalid-token-ip" | "admin-key-ip"
  | "admin-signin-ip" | "admin-signin-email" | "oauth-ip" | "oauth-registration-ip" | "oauth-client-document-ip";
export type BucketName = WindowBucket | "signin-failures";

const settingOf: Record<WindowBucket, keyof Config> = {
  "signin-ip": "limitSigninIp", "signup-ip": "limitSignupIp", "email-exists-ip": "limitEmailExistsIp",
  "refresh-ip": "limitRefreshIp", "signinup-ip": "limitSigninupIp", "mail-ip": "limitMailIp",
  "reset-cooldown": "limitMailCooldown", "verify-cooldown": "limitMailCooldown", "mail-hourly": "limitMailHourly", "token-ip": "limitTokenIp",
  "invalid-token-ip": "limitInvalidTokenIp", "admin-key-ip": "limitAdminKeyIp",
  "admin-signin-ip": "limitAdminSigninIp", "admin-signin-email": "limitAdminSigninEmail",
  "oauth-ip": "limitOauthIp", "oauth-registration-ip": "limitOauthRegistrationIp", "oauth-client-document-ip": "limitOauthClientDocumentIp",
};

/** Buckets that count failures only (countFailure) and refuse once full (checkLimit). */
export function isFailureBucket(bucket: string): boolean {
  return bucket === "invalid-token-ip" || bucket === "admin-key-ip" || bucket === "admin-signin-email";
}

/** The setting that holds each bucket's budget. */
export const bucketSettings: Readonly<Record<BucketName, keyof Config>> = { ...settingOf, "signin-failures": "limitSigninFailures" };

interface Rules {
  windows: Map<string, LimitSpec>;
  /** Consecutive failed sign-ins per address: the lock's count, its length, and the wait after each failure. */
  signin?: { cap: number; windowMs: number; blockMs: number[] };
}

const cache = new WeakMap<Readonly<Config>, Rules>();

/** The rules of a configuration, computed once (the config is frozen). */
function rulesOf(config: Readonly<Config>): Rules {
  let rules = cache.get(config);
  if (rules) return rules;
  rules = { windows: new Map() };
  if (config.rateLimits) {
    for (const [bucket, key] of Object.entries(settingOf)) {
      const spec = parseLimitSpec(config[key] as string);
      if (spec) rules.windows.set(bucket, spec);
    }
    const f = parseLimitSpec(config.limitSigninFailures);
    if (f) {
      // After failure n: nothing while n < free, then 1 s doubling up to the max delay, and at the
      // cap the lock. Admission sets the wait before the outcome is known; a success deletes it.
      const blockMs = Array.from({ length: f.limit }, (_, i) => {
        const n = i + 1;
        if (n >= f.limit) return f.windowMs;
        if (n < config.limitSigninFreeFailures) return 0;
        return Math.min(1000 * 2 ** Math.min(n - config.limitSigninFreeFailures, 40), config.limitSigninMaxDelayMs);
      });
      rules.signin = { cap: f.limit, windowMs: f.windowMs, blockMs };
    }
  }
  cache.set(config, rules);
  return rules;
}

/** The one answer to every limited request: 429, the same message, Retry-After in whole seconds. */
export function rateLimited(retryAfterMs: number): AuthError {
  return new AuthError("RATE_LIMITED", "Too many requests. Please try again later.", { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) });
}

/** Every refusal leaves through here (one place to count them, e.g. for metrics). */
function refuse(ctx: CoreContext, bucket: BucketName, retryAfterMs: number): never {
  ctx.logger.debug("rate limited", { bucket });
  ctx.metrics.rateLimited(bucket);
  throw rateLimited(retryAfterMs);
}

/** Records that a bucket went over its budget (the audit trail of locks). */
async function recordLock(ctx: CoreContext, bucket: BucketName, key: string, until: number): Promise<void> {
  const at = ctx.clock.now();
  await ctx.store.writeTx((tx) => insertEvent(tx, { at, type: "rate_limit.locked", userId: null, data: { bucket, key, until } }));
  ctx.logger.info("rate limit locked", { bucket, until: new Date(until).toISOString() });
}

/** Counts one request against a bucket; throws RATE_LIMITED (429) once its budget is spent. A bucket that is off does nothing. */
export async function enforceLimit(ctx: CoreContext, bucket: WindowBucket, key: string): Promise<void> {
  const spec = rulesOf(ctx.config).windows.get(bucket);
  if (!spec) return;
  const now = ctx.clock.now();
  const { count, expiresAt } = await counters.hitWindow(ctx.store, { bucket, key, now, windowMs: spec.windowMs });
  if (count <= spec.limit) return;
  if (count === spec.limit + 1) await recordLock(ctx, bucket, key, expiresAt);
  refuse(ctx, bucket, expiresAt - now);
}

/** Throws RATE_LIMITED when a failure-counting bucket is already full, without counting anything (one read). */
export async function checkLimit(ctx: CoreContext, bucket: WindowBucket, key: string): Promise<void> {
  const spec = rulesOf(ctx.config).windows.get(bucket);
  if (!spec) return;
  const now = ctx.clock.now();
  const row = await counters.findCounter(ctx.store.db, bucket, key);
  if (row && row.expires_at > now && row.count >= spec.limit) refuse(ctx, bucket, row.expires_at - now);
}

/** Counts one failure (an invalid token) against a bucket that checkLimit guards; never throws RATE_LIMITED itself. */
export async function countFailure(ctx: CoreContext, bucket: WindowBucket, key: string): Promise<void> {
  const spec = rulesOf(ctx.config).windows.get(bucket);
  if (!spec) return;
  const { count, expiresAt } = await counters.hitWindow(ctx.store, { bucket, key, now: ctx.clock.now(), windowMs: spec.windowMs });
  if (count === spec.limit) await recordLock(ctx, bucket, key, expiresAt);
}

/** An attempt admitted against a failure bucket, to be settled with its outcome. */
export interface FailureTicket { bucket: WindowBucket; key: string; count: number; expiresAt: number }

/**
 * Admits one attempt against a failure-counting bucket (admin-signin-email) in one atomic upsert:
 * counted before the check, so concurrent attempts cannot all read "under the cap" and all be
 * checked; RATE_LIMITED once the budget is spent. settleFailureAttempt gives a success back, so
 * only failures stay counted.
 */
export async function admitFailureAttempt(ctx: CoreContext, bucket: WindowBucket, key: string): Promise<FailureTicket | undefined> {
  const spec = rulesOf(ctx.config).windows.get(bucket);
  if (!spec) return undefined;
  const now = ctx.clock.now();
  const { count, expiresAt } = await counters.hitWindow(ctx.store, { bucket, key, now, windowMs: spec.windowMs });
  if (count > spec.limit) refuse(ctx, bucket, expiresAt - now);
  return { bucket, key, count, expiresAt };
}

/** Settles an admitted attempt: a success is given back; the failure that fills the budget is a lock event. */
export async function settleFailureAttempt(ctx: CoreContext, ticket: FailureTicket | undefined, ok: boolean): Promise<void> {
  const spec = ticket && rulesOf(ctx.config).windows.get(ticket.bucket);
  if (!ticket || !spec) return;
  if (ok) await counters.releaseHit(ctx.store, ticket.bucket, ticket.key, ctx.clock.now());
  else if (ticket.count === spec.limit) await recordLock(ctx, ticket.bucket, ticket.key, ticket.expiresAt);
}

/** A sign-in attempt admitted by admitSignIn, to be settled with its outcome. */
export interface SignInTicket { key: string; count: number }

/**
 * Admits a password sign-in for an address before any bcrypt work: the attempt is counted first, so
 * neither concurrency nor a second instance gets past the cap. A key still waiting out its delay or
 * lock is refused with RATE_LIMITED, even with the right password, and the same way whether or not
 * the address has an account (the key is the submitted canonical address, not a user).
 */
export async function admitSignIn(ctx: CoreContext, email: string): Promise<SignInTicket | undefined> {
  const rule = rulesOf(ctx.config).signin;
  if (!rule) return undefined;
  const key = canonicalEmail(email);
  const now = ctx.clock.now();
  const admitted = await counters.admitAttempt(ctx.store, { bucket: "signin-failures", key, now, windowMs: rule.windowMs, blockMs: rule.blockMs });
  if (admitted) return { key, count: admitted.count };
  const row = await counters.findCounter(ctx.store.db, "signin-failures", key);
  // Refused while both the wait and the memory last: it lifts at the earlier of the two.
  refuse(ctx, "signin-failures", row ? Math.min(Number(row.blocked_until), Number(row.expires_at)) - now : 1000);
}

/** Settles an admitted sign-in: a success forgets the address's failures; the failure that reaches the cap is a lock event. */
export async function settleSignIn(ctx: CoreContext, ticket: SignInTicket | undefined, ok: boolean): Promise<void> {
  const rule = rulesOf(ctx.config).signin;
  if (!ticket || !rule) return;
  if (ok) await counters.deleteCounter(ctx.store, "signin-failures", ticket.key);
  else if (ticket.count === rule.cap) await recordLock(ctx, "signin-failures", ticket.key, ctx.clock.now() + rule.windowMs);
}

/**
 * Counts one mail request for an address against the cooldown of its kind (a reset right after the
 * verification mail is fine) and the hourly cap shared by both kinds (what protects a mailbox from
 * being flooded). Callers use it for every well-formed address, with or without an account, so a
 * 429 tells nothing about accounts.
 */
export async function enforceMailLimits(ctx: CoreContext, email: string, kind: "reset" | "verify"): Promise<void> {
  const key = canonicalEmail(email);
  await enforceLimit(ctx, kind === "reset" ? "reset-cooldown" : "verify-cooldown", key);
  await enforceLimit(ctx, "mail-hourly", key);
}

/** The verification-mail variant: the signed-in user's address, and only when a mail would go out (not yet verified). */
export async function enforceVerificationMailLimits(ctx: CoreContext, userId: string): Promise<void> {
  if (!rulesOf(ctx.config).windows.size) return;
  const user = await users.findUserById(ctx.store.db, userId);
  if (!user || (await users.isEmailVerified(ctx.store.db, userId, user.email))) return;
  await enforceMailLimits(ctx, user.email, "verify");
}

/**
 * What a key has spent of a bucket's budget in its current window: the count so far and the budget
 * (undefined when the bucket is off; a count of 0 when the key is unseen or its window is over).
 * Reads only, one point read: for a guard that asks more of a client once it has used much of its
 * budget (the bot check's `--captcha-required when-limited`).
 */
export async function budgetSpent(ctx: CoreContext, bucket: BucketName, key: string): Promise<{ count: number; limit: number } | undefined> {
  const rules = rulesOf(ctx.config);
  const limit = bucket === "signin-failures" ? rules.signin?.cap : rules.windows.get(bucket)?.limit;
  if (limit === undefined) return undefined;
  const row = await counters.findCounter(ctx.store.db, bucket, key);
  return { count: row && Number(row.expires_at) > ctx.clock.now() ? Number(row.count) : 0, limit };
}

/** Forgets an address's failed sign-ins (a completed password reset proves the owner). */
export async function clearSignInFailures(ctx: CoreContext, email: string): Promise<void> {
  if (rulesOf(ctx.config).signin) await counters.deleteCounter(ctx.store, "signin-failures", canonicalEmail(email));
}

/**
 * The key of a client address: IPv4 as is (IPv4-mapped IPv6 too), IPv6 by its /64 (one customer's
 * network: a host with a /64 can pick any of 2^64 addresses, so a per-address key limits nothing).
 * Undefined when the text is not an IP address.
 */
export function ipKey(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  const ip = ipaddr.process(address);
  if (ip.kind() === "ipv4") return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
