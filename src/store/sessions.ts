import type { Kysely, Selectable } from "kysely";
import type { DB, RefreshTokensTable, SessionsTable } from "./schema.js";

export type SessionRow = Selectable<SessionsTable>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;

/** Revokes every live session of a user (their refresh tokens stop working at once). */
export async function revokeUserSessions(db: Kysely<DB>, userId: string, now: number, reason: string): Promise<number> {
  const r = await db.updateTable("sessions").set({ revoked_at: now, revoke_reason: reason })
    .where("user_id", "=", userId).where("revoked_at", "is", null).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function insertSession(db: Kysely<DB>, row: SessionRow): Promise<void> {
  await db.insertInto("sessions").values(row).execute();
}

export async function insertRefreshToken(db: Kysely<DB>, row: RefreshTokenRow): Promise<void> {
  await db.insertInto("refresh_tokens").values(row).execute();
}

/** A refresh token with the state of its session, by token hash. */
export async function findRefreshToken(db: Kysely<DB>, tokenHash: string) {
  return db.selectFrom("refresh_tokens as r").innerJoin("sessions as s", "s.handle", "r.session_handle")
    .select(["r.token_hash", "r.session_handle", "r.expires_at", "r.rotated_at", "s.user_id", "s.revoked_at", "s.expires_at as session_expires_at", "s.created_at as session_created_at"])
    .where("r.token_hash", "=", tokenHash).executeTakeFirst();
}

/** Compare-and-swap: marks a live token rotated. False when another request rotated it first. */
export async function markRefreshTokenRotated(db: Kysely<DB>, tokenHash: string, now: number): Promise<boolean> {
  const r = await db.updateTable("refresh_tokens").set({ rotated_at: now })
    .where("token_hash", "=", tokenHash).where("rotated_at", "is", null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Marks every other live token of the session rotated (siblings minted in a grace window). */
export async function displaceLiveRefreshTokens(db: Kysely<DB>, sessionHandle: string, now: number): Promise<number> {
  const r = await db.updateTable("refresh_tokens").set({ rotated_at: now })
    .where("session_handle", "=", sessionHandle).where("rotated_at", "is", null).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Slides a live session's expiry forward. False when it was revoked meanwhile. */
export async function extendSession(db: Kysely<DB>, handle: string, expiresAt: number, now: number): Promise<boolean> {
  const r = await db.updateTable("sessions").set({ expires_at: expiresAt, last_refreshed_at: now })
    .where("handle", "=", handle).where("revoked_at", "is", null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Revokes one session. False when it was already revoked or does not exist. */
export async function revokeSession(db: Kysely<DB>, handle: string, now: number, reason: string): Promise<boolean> {
  const r = await db.updateTable("sessions").set({ revoked_at: now, revoke_reason: reason })
    .where("handle", "=", handle).where("revoked_at", "is", null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Everything an authenticated request needs in ONE query: the session's state and whether its
 * user's current email is verified.
 */
export async function findSessionState(db: Kysely<DB>, handle: string) {
  return db.selectFrom("sessions as s").innerJoin("users as u", "u.id", "s.user_id")
    .leftJoin("verified_emails as v", (j) => j.onRef("v.user_id", "=", "s.user_id").onRef("v.email", "=", "u.email"))
    .select(["s.user_id", "s.revoked_at", "s.expires_at", "v.verified_at"])
    .where("s.handle", "=", handle).executeTakeFirst();
}

/** Whether a user's current email is verified (undefined: no such user), in one query. */
export async function findEmailVerified(db: Kysely<DB>, userId: string): Promise<boolean | undefined> {
  const r = await db.selectFrom("users as u")
    .leftJoin("verified_emails as v", (j) => j.onRef("v.user_id", "=", "u.id").onRef("v.email", "=", "u.email"))
    .select(["u.id", "v.verified_at"]).where("u.id", "=", userId).executeTakeFirst();
  return r ? r.verified_at !== null : undefined;
}
