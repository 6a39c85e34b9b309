import type { CoreContext } from "../core/context.js";
import { insertEvent } from "../store/events.js";
import { findMembers, type AccountSubject } from "./reauth.js";
import { listSessionsWithClient, revokeOwnSession, revokeSessionsExcept } from "./store.js";

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
}

/** The person's live sessions, whichever login method started them, newest first. */
export async function listMySessions(ctx: CoreContext, s: AccountSubject): Promise<MySession[]> {
  const found = await findMembers(ctx.store.db, s.userId);
  const rows = await listSessionsWithClient(ctx.store.db, found?.members ?? [], ctx.clock.now());
  return rows.map((r) => ({
    sessionHandle: r.handle, current: r.handle === s.sessionHandle, createdAt: Number(r.created_at),
    lastUsedAt: Number(r.last_refreshed_at ?? r.created_at), expiresAt: Number(r.expires_at), ip: r.client_ip, userAgent: r.user_agent,
  }));
}

/**
 * Revokes one of the person's sessions (`sessionHandle`), or every one but this (`others`). A
 * handle that is not the person's, or already ended, revokes nothing (0), without saying which.
 */
export async function revokeMySessions(ctx: CoreContext, s: AccountSubject, what: { sessionHandle: string } | { others: true }): Promise<number> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const members = (await findMembers(tx, s.userId))?.members ?? [];
    if ("sessionHandle" in what) {
      const done = await revokeOwnSession(tx, members, what.sessionHandle, now, "account");
      if (done) await insertEvent(tx, { at: now, type: "session.revoked", userId: s.personId, data: { sessionHandle: what.sessionHandle, reason: "account" } });
      return done ? 1 : 0;
    }
    const n = await revokeSessionsExcept(tx, members, s.sessionHandle, now, "account");
    if (n > 0) await insertEvent(tx, { at: now, type: "sessions.revoked", userId: s.personId, data: { count: n, reason: "account", kept: s.sessionHandle } });
    return n;
  });
}
