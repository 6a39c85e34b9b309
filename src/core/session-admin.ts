import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import { insertEvent } from "../store/events.js";
import { findPersonId, findPersonMemberIds } from "../store/people.js";
import { findSession, listLiveSessions } from "../store/session-list.js";
import type { CoreContext } from "./context.js";
import { actorOf, revokeSession } from "./sessions.js";
import { countEnded, endWaysIn, totalEnded, type EndedWaysIn } from "./ways-in.js";

/** A session as an operator sees it: never a token or its hash. */
export interface SessionView {
  handle: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
  lastRefreshedAt: number | null;
  /** A support session: the address of the admin acting as the person in it; else null. */
  supportBy: string | null;
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
    supportBy: actorOf(r.actor)?.email ?? null,
  }));
}

/**
 * The operator's "sign out everywhere" (CLI `sessions revoke`, the admin API, the dashboard): every
 * way in of the person ends (core/ways-in.ts: every session, whichever login started it, and the
 * apps they allowed). Returns what ended.
 */
export async function signOutEverywhere(ctx: CoreContext, userId: string, source = "api"): Promise<EndedWaysIn> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const ended = await endWaysIn(tx, ctx, { userId, reason: "admin", source });
    const count = countEnded(ended);
    if (totalEnded(ended) > 0) await insertEvent(tx, { at: now, type: "sessions.revoked", userId, data: { count: count.sessions ?? 0, endedWaysIn: count, reason: "admin", source } });
    return ended;
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
