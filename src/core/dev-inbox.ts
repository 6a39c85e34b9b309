import { caughtMailVersion, deleteAllCaughtMail, findCaughtMail, listLatestCaughtMail } from "../store/caught-mail.js";
import { listLatestEvents } from "../store/events.js";
import { tokensVersion } from "../store/one-time-tokens.js";
import { viewCaughtMail, type CaughtMailView } from "../mail/caught-mail-view.js";
import type { CoreContext } from "./context.js";

/**
 * The development inbox's reads and writes (development mode only; the HTTP layer guards that).
 * It reads the same database as the server, so it can say what no mail catcher can: whether a
 * mail's link still works.
 */
export type TokenState = "valid" | "used" | "expired";

export interface InboxMessage extends CaughtMailView {
  /** null when the mail carries no token of ours. */
  tokenState: TokenState | null;
}

export interface InboxMessageDetail extends InboxMessage {
  from: string | null;
  text: string;
  hasHtml: boolean;
}

/**
 * Valid while the token's row exists and has not expired, as the mail's action tells
 * (MailAction.expiry). Tokens are deleted when used (and when a sibling link is used or a reset
 * succeeds), so a missing row before the mail's expiry means used; after it, expired (expired rows
 * are purged too).
 */
async function readTokenState(ctx: CoreContext, v: CaughtMailView): Promise<TokenState | null> {
  const expiry = ctx.mail.action(v.action)?.expiry;
  if (!expiry) return null;
  const now = ctx.clock.now();
  const expiresAt = await expiry(ctx.store.db, v);
  if (expiresAt === null) return null;
  if (expiresAt !== undefined) return expiresAt <= now ? "expired" : "valid";
  return v.expiresAt && Date.parse(v.expiresAt) <= now ? "expired" : "used";
}

/**
 * Caught mail, newest first (the latest `limit`), optionally for recipients containing `to` (any
 * part of the address, as one types it into the filter) and for one action.
 */
export async function listInbox(ctx: CoreContext, f: { to?: string; action?: string; limit?: number }): Promise<InboxMessage[]> {
  const rows = await listLatestCaughtMail(ctx.store.db, { limit: Math.min(f.limit ?? 200, 500) });
  const needle = f.to?.trim().toLowerCase() ?? "";
  const views = rows.reverse().map((r) => viewCaughtMail(ctx.mail, r)).filter((v) => (!f.action || v.action === f.action) && v.to.includes(needle));
  return Promise.all(views.map(async (v) => ({ ...v, tokenState: await readTokenState(ctx, v) })));
}

/** One caught message with its text, or undefined. */
export async function readInboxMessage(ctx: CoreContext, id: number): Promise<{ detail: InboxMessageDetail; html: string | null } | undefined> {
  const row = await findCaughtMail(ctx.store.db, id);
  if (!row) return undefined;
  const v = viewCaughtMail(ctx.mail, row);
  return { detail: { ...v, tokenState: await readTokenState(ctx, v), from: row.mail_from, text: row.text_body ?? "", hasHtml: !!row.html_body }, html: row.html_body };
}

/** Deletes all caught mail; returns how many messages. */
export async function clearInbox(ctx: CoreContext): Promise<number> {
  return ctx.store.writeTx((tx) => deleteAllCaughtMail(tx));
}

/** A fingerprint that changes when mail arrives or goes, or a token is issued or used. */
export async function readInboxVersion(ctx: CoreContext): Promise<string> {
  const [m, ...ts] = await Promise.all([caughtMailVersion(ctx.store.db), tokensVersion(ctx.store.db), ...ctx.mail.tokensVersions.map((f) => f(ctx.store.db))]);
  return `${m.lastId}.${m.count}.${ts.reduce((n, t) => n + t.count, 0)}.${Math.max(...ts.map((t) => t.newest))}`;
}

/** The latest events for the development home page (data as stored: it never holds a secret). */
export async function listRecentEvents(ctx: CoreContext, limit: number): Promise<Array<{ at: string; type: string; userId: string | null; data: string | null }>> {
  const rows = await listLatestEvents(ctx.store.db, limit);
  return rows.map((r) => ({ at: new Date(Number(r.at)).toISOString(), type: r.type, userId: r.user_id, data: r.data }));
}
