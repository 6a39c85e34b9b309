import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import * as tokens from "../store/one-time-tokens.js";
import { createSecretToken, hashToken } from "../util/random.js";
import type { CoreContext } from "./context.js";
import { badInput } from "./errors.js";
import { websiteLink } from "./mail-queue.js";

export type TokenPurpose = tokens.TokenPurpose;

/**
 * Creates a one-time token: 256 random bits, base64url (URL-safe), of which only the SHA-256 is
 * stored. The raw token leaves this function once, to go into a mail (and, in development mode,
 * a response). Runs inside the caller's transaction.
 */
export async function issueOneTimeToken(tx: Kysely<DB>, t: { purpose: TokenPurpose; userId: string; email: string; now: number; lifetimeMs: number }): Promise<{ token: string; expiresAt: number }> {
  const token = createSecretToken();
  const expiresAt = t.now + t.lifetimeMs;
  await tokens.insertToken(tx, { token_hash: hashToken(token), purpose: t.purpose, user_id: t.userId, email: t.email, created_at: t.now, expires_at: expiresAt });
  return { token, expiresAt };
}

/** What stands in for a token in anything kept beyond the mail itself. */
export const REDACTED_TOKEN = "REDACTED";

/**
 * The token part of a `*.token_created` event. The events table is append-only and kept for
 * audit, so it must not hold a usable secret (tokens are stored only hashed): the link is kept
 * with its token replaced by REDACTED, plus the first 12 hex characters of the token's SHA-256 so
 * an operator can match the event to a one_time_tokens row (or a token a user reports) without
 * the log ever being enough to use it.
 */
export function tokenEventData(ctx: CoreContext, page: "verify-email" | "reset-password", token: string): { link: string; tokenHashPrefix: string } {
  return { link: websiteLink(ctx, page, REDACTED_TOKEN), tokenHashPrefix: hashToken(token).slice(0, 12) };
}

/**
 * Checks the shape of a submitted token (PROTOCOL.md §7, §8: 400 for missing or non-string) and
 * returns it. Anything longer than any token we issue cannot match; it is still looked up by hash,
 * so its length tells nothing.
 */
export function requireTokenString(token: unknown, what: "email verification" | "password reset"): string {
  if (token === undefined || token === null) throw badInput(`Please provide the ${what} token`);
  if (typeof token !== "string") throw badInput(`The ${what} token must be a string`);
  return token;
}

/** Deletes expired tokens (run periodically; expired tokens are also purged when submitted). */
export async function purgeExpiredTokens(ctx: CoreContext): Promise<number> {
  const now = ctx.clock.now();
  return ctx.store.writeTx((tx) => tokens.deleteExpiredTokens(tx, now));
}
