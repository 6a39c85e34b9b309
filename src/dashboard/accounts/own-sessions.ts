import type { CoreContext } from "../../core/context.js";
import { insertEvent } from "../../store/events.js";
import * as store from "./store.js";

/**
 * An admin's view of their own dashboard sessions: where they are signed in, and "sign out my other
 * sessions" (a browser left signed in elsewhere). No token or hash ever leaves this module.
 */
export interface OwnSession { current: boolean; createdAt: number; lastSeenAt: number; ip: string | null; userAgent: string | null }

/** The admin's live sessions (idle ones included until they are next used or purged), newest first. */
export async function listOwnSessions(ctx: CoreContext, adminId: string, currentHash: string): Promise<OwnSession[]> {
  const rows = await store.listAdminSessionRows(ctx.store.db, adminId, ctx.clock.now());
  const idle = ctx.config.adminSessionIdleMs;
  const now = ctx.clock.now();
  return rows.filter((r) => r.last_seen_at + idle > now).map((r) => ({ current: r.token_hash === currentHash, createdAt: r.created_at, lastSeenAt: r.last_seen_at, ip: r.ip, userAgent: r.user_agent }));
}

/** Ends every other session of the admin, with its event; returns how many ended. */
export async function endOtherSessions(ctx: CoreContext, adminId: string, currentHash: string, source: string): Promise<number> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const n = await store.deleteOtherAdminSessions(tx, adminId, currentHash);
    await insertEvent(tx, { at: now, type: "admin.other_sessions_ended", userId: null, adminId, data: { sessionsEnded: n, source } });
    return n;
  });
}
