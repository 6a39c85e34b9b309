import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import { insertEvent } from "../store/events.js";
import { findPersonId, findPersonMemberIds } from "../store/people.js";
import { findSession, listLiveSessions } from "../store/session-list.js";
import { revokeUserSessions } from "../store/sessions.js";
import type { CoreContext } from "./context.js";
import { revokeSession } from "./sessions.js";

/** A session as an operator sees it: never a token or its hash. */
export interface SessionView {
  handle: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
  lastRefreshedAt: number | null;
}

/** The ids of every login method of the person `userId` names (just `userId` when it names no one). */
async function findMethodIds(db: Kysely<DB>, userId: string): Promise<string[]> {
  const personId = await findPersonId(db, userId);
  return personId === undefined ? [userId] : findPersonMemberIds(db, personId);
}

/** The person's live sessions (not revoked, not expired) with any of their login methods, newest first. */
export async function listUserSessions(ctx: CoreContext, userId: string): Promise<SessionView[]> {
  const rows = await listLiveSessions(ctx.store.db, await findMethodIds(ctx.store.db, userId), ctx.clock.now());
  return rows.map((r) => ({
    handle: r.handle, userId: r.user_id, createdAt: Number(r.created_at), expiresAt: Number(r.expires_at),
    lastRefreshedAt: r.last_refreshed_at === null ? null : Number(r.last_refreshed_at),
  }));
}

/** Revokes every live session of the person, whichever login method started it. Returns how many. */
export async function revokeAllUserSessions(ctx: CoreContext, userId: string, source = "api"): Promise<number> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    let n = 0;
    for (const id of await findMethodIds(tx, userId)) n += await revokeUserSessions(tx, id, now, "admin");
    if (n > 0) await insertEvent(tx, { at: now, type: "sessions.revoked", userId, data: { count: n, reason: "admin", source } });
    return n;
  });
}

/**
 * Revokes one session by handle. "not_found" for an unknown handle; "already_revoked" when it was
 * revoked before (or has expired, which ends it just the same).
 */
export async function revokeSessionByHandle(ctx: CoreContext, handle: string, source = "api"): Promise<{ status: "revoked" | "already_revoked"; userId: string } | { status: "not_found" }> {
  const row = await findSession(ctx.store.db, handle);
  if (!row) return { status: "not_found" };
  const done = await revokeSession(ctx, handle, row.user_id, "admin", source);
  return { status: done ? "revoked" : "already_revoked", userId: row.user_id };
}
