import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import * as tokens from "../store/one-time-tokens.js";
import { insertEvent } from "../store/events.js";
import { createSecretToken, hashToken } from "../util/random.js";
import type { CoreContext } from "./context.js";
import { badInput } from "./errors.js";
import type { MailKind } from "../mail/kinds.js";
import { queueMail, websiteLink } from "./mail-queue.js";

export type TokenPurpose = tokens.TokenPurpose;

/** What stands in for a token in anything kept beyond the mail itself. */
export const REDACTED_TOKEN = "REDACTED";

/**
 * Issues a one-time token and mails its link, inside the caller's transaction. Every earlier token
 * of the same purpose for the user is retired first (same transaction): only the newest link works,
 * so a link left in an old mail (or a mailbox someone else can read) dies with the next request.
 * The new token: 256 random bits,
 * base64url, of which only the SHA-256 is stored; the `<purpose>.token_created` event; and the
 * mail of the same kind, valid for `lifetimeMs` (the purpose's setting), its link opening `page`. The events table is
 * append-only and kept for audit, so the event must not hold a usable secret: it keeps the link
 * with the token replaced by REDACTED, plus the first 12 hex characters of the token's SHA-256 so
 * an operator can match it to a one_time_tokens row (or a token a user reports). The raw token
 * leaves this function once, for the caller to return in development mode only. `locale`: the
 * language of a mail to an address no account has yet (queueMail), e.g. the requester's.
 */
export async function issueTokenWithMail(tx: Kysely<DB>, ctx: CoreContext, t: { purpose: TokenPurpose & MailKind; page: string; lifetimeMs: number; userId: string; email: string; now: number; source: string; locale?: string }): Promise<{ token: string; expiresAt: number }> {
  const { lifetimeMs, page } = t;
  const token = createSecretToken();
  const tokenHash = hashToken(token);
  const expiresAt = t.now + lifetimeMs;
  await tokens.deleteUserTokens(tx, t.userId, t.purpose);
  await tokens.insertToken(tx, { token_hash: tokenHash, purpose: t.purpose, user_id: t.userId, email: t.email, created_at: t.now, expires_at: expiresAt });
  await insertEvent(tx, {
    at: t.now, type: `${t.purpose}.token_created`, userId: t.userId,
    data: { email: t.email, link: websiteLink(ctx, page, REDACTED_TOKEN), tokenHashPrefix: tokenHash.slice(0, 12), expiresAt, source: t.source },
  });
  await queueMail(tx, ctx, { kind: t.purpose, to: t.email, vars: { link: websiteLink(ctx, page, token), expiresAt, validForMs: lifetimeMs }, locale: t.locale });
  return { token, expiresAt };
}

/**
 * Checks the shape of a submitted token (PROTOCOL.md §7, §8: 400 for missing or non-string) and
 * returns it. Anything longer than any token we issue cannot match; it is still looked up by hash,
 * so its length tells nothing.
 */
export function requireTokenString(token: unknown, what: "email verification" | "password reset" | "account recovery"): string {
  if (token === undefined || token === null) throw badInput(`Please provide the ${what} token`);
  if (typeof token !== "string") throw badInput(`The ${what} token must be a string`);
  return token;
}
