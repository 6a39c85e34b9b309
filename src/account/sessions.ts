import type { CoreContext } from "../core/context.js";
import { actorOf } from "../core/sessions.js";
import { insertEvent } from "../store/events.js";
import { findMembers, type AccountSubject } from "./reauth.js";
import { countEnded, endWaysIn, totalEnded, type EndedWaysIn } from "../core/ways-in.js";
import { listSessionsWithClient, revokeOwnSession } from "./store.js";

/** One of my sessions as "My account" shows it: never a token or its hash. */
export interface MySession {
  sessionHandle: string;
  /** The session this request is made with. */
  current: boolean;
  createdAt: number;
  /** The last refresh (an access token lives a few minutes, so this is within one of real use), or the sign-in. */
  lastUsedAt: number;
  expiresAt: number;
  ip: string | null;
  userAgent: string | null;
  /** A support session: the address of the admin acting as the person in it (core/sessions.ts SessionStart.actor); else null. */
  supportBy: string | null;
}

/** The person's live sessions, whichever login method started them, newest first. */
export async function listMySessions(ctx: CoreContext, s: AccountSubject): Promise<MySession[]> {
  const found = await findMembers(ctx.store.db, s.userId);
  const rows = await listSessionsWithClient(ctx.store.db, found?.members ?? [], ctx.clock.now());
  return rows.map((r) => ({
    sessionHandle: r.handle, current: r.handle === s.sessionHandle, createdAt: Number(r.created_at),
    lastUsedAt: Number(r.last_refreshed_at ?? r.created_at), expiresAt: Number(r.expires_at), ip: r.client_ip, userAgent: r.user_agent,
    supportBy: actorOf(r.actor)?.email ?? null,
  }));
}

/**
 * Revokes one of the person's sessions (`sessionHandle`): 1, or 0 for a handle that is not the
 * person's or already ended, without saying which.
 */
export async function revokeMySession(ctx: CoreContext, s: AccountSubject, sessionHandle: string): Promise<number> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const members = (await findMembers(tx, s.userId))?.members ?? [];
    const done = await revokeOwnSession(tx, members, sessionHandle, now, "account");
    if (done) await insertEvent(tx, { at: now, type: "session.revoked", userId: s.personId, data: { sessionHandle, reason: "account" } });
    return done ? 1 : 0;
  });
}

/**
 * "Sign out everywhere else": every way in of the person ends (core/ways-in.ts: their other
 * sessions, whichever login started them, and the apps they allowed) but this session.
 */
export async function signOutEverywhereElse(ctx: CoreContext, s: AccountSubject): Promise<EndedWaysIn> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const ended = await endWaysIn(tx, ctx, { userId: s.userId, reason: "account", source: "account", keepSession: s.sessionHandle });
    const count = countEnded(ended);
    if (totalEnded(ended) > 0) await insertEvent(tx, { at: now, type: "sessions.revoked", userId: s.personId, data: { count: count.sessions ?? 0, endedWaysIn: count, reason: "account", kept: s.sessionHandle } });
    return ended;
  });
}
