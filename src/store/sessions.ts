import { PostgresAdapter, sql, type Insertable, type Kysely, type Selectable } from "kysely";
import type { DB, RefreshTokensTable, SessionsTable } from "./schema.js";
import { prepareQuery } from "./prepared.js";
import { batchReads } from "./read-batch.js";

export type SessionRow = Selectable<SessionsTable>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;

/**
 * Revokes every live session of these users (a person's logins), all but `keep` when given; their
 * refresh tokens stop working at once; with `own`, only the person's own (no `actor`). Returns the handles revoked.
 */
export async function revokeSessionsOf(db: Kysely<DB>, userIds: readonly string[], opts: { now: number; reason: string; keep?: string; own?: boolean }): Promise<string[]> {
  if (userIds.length === 0) return [];
  let q = db.updateTable("sessions").set({ revoked_at: opts.now, revoke_reason: opts.reason }).where("user_id", "in", userIds).where("revoked_at", "is", null);
  if (opts.own) q = q.where("actor", "is", null);
  if (opts.keep !== undefined) q = q.where("handle", "!=", opts.keep);
  return (await q.returning("handle").execute()).map((r) => r.handle);
}

/**
 * Revokes a user's live sessions beyond the newest `keep` (oldest first); returns how many. On
 * PostgreSQL the user's row is locked first, so two sign-ins at once cannot both count the same
 * sessions and pass the cap together (SQLite writes one transaction at a time anyway).
 */
export async function revokeSessionsBeyond(db: Kysely<DB>, userId: string, keep: number, now: number, reason: string): Promise<number> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.selectFrom("users").select("id").where("id", "=", userId).forUpdate().execute();
  }
  const excess = (await liveSessionsBeyondQuery(db, userId, now, keep)).rows;
  if (excess.length === 0) return 0;
  await db.updateTable("sessions").set({ revoked_at: now, revoke_reason: reason })
    .where("handle", "in", excess.map((r) => r.handle)).where("revoked_at", "is", null).execute();
  return excess.length;
}

export async function insertSession(db: Kysely<DB>, row: Insertable<SessionsTable>): Promise<void> {
  await insertSessionQuery(db, row.handle, row.user_id, row.created_at, row.expires_at, row.last_refreshed_at ?? null, row.revoked_at ?? null, row.revoke_reason ?? null, row.client_ip ?? null, row.user_agent ?? null);
}

// Every sign-in and sign-up runs these two (prepared.ts).
const liveSessionsBeyondQuery = prepareQuery<[string, number, number], { handle: string }>(3, (db, userId, now, keep) =>
  db.selectFrom("sessions").select("handle")
    .where("user_id", "=", userId).where("revoked_at", "is", null).where("expires_at", ">", now)
    .orderBy("created_at", "desc").orderBy("handle", "desc").limit(1_000_000_000).offset(keep));
const insertSessionQuery = prepareQuery<[string, string, number, number, number | null, number | null, string | null, string | null, string | null], unknown>(9,
  (db, handle, user_id, created_at, expires_at, last_refreshed_at, revoked_at, revoke_reason, client_ip, user_agent) =>
    db.insertInto("sessions").values({ handle, user_id, created_at, expires_at, last_refreshed_at, revoked_at, revoke_reason, client_ip, user_agent }));

// The refresh path and the authenticated GET run these on every request: built and compiled once
// (prepared statements on PostgreSQL), see prepared.ts.
const insertRefreshTokenQuery = prepareQuery<[string, string, string | null, number, number, number | null], unknown>(6, (db, token_hash, session_handle, parent_hash, created_at, expires_at, rotated_at) =>
  db.insertInto("refresh_tokens").values({ token_hash, session_handle, parent_hash, created_at, expires_at, rotated_at }));
const findRefreshTokenQuery = prepareQuery<[string], { token_hash: string; session_handle: string; expires_at: number; rotated_at: number | null; user_id: string; primary_user_id: string | null; revoked_at: number | null; session_expires_at: number; session_created_at: number; verified_at: number | null; actor: string | null; ends_at: number | null }>(1, (db, hash) =>
  db.selectFrom("refresh_tokens as r").innerJoin("sessions as s", "s.handle", "r.session_handle")
    .innerJoin("users as u", "u.id", "s.user_id")
    .leftJoin("verified_emails as v", (j) => j.onRef("v.user_id", "=", "s.user_id").onRef("v.email", "=", "u.email"))
    .select(["r.token_hash", "r.session_handle", "r.expires_at", "r.rotated_at", "s.user_id", "u.primary_user_id", "s.revoked_at", "s.expires_at as session_expires_at", "s.created_at as session_created_at", "v.verified_at", "s.actor", "s.ends_at"])
    .where("r.token_hash", "=", hash));
const markRotatedQuery = prepareQuery<[number, string], unknown>(2, (db, now, hash) =>
  db.updateTable("refresh_tokens").set({ rotated_at: now }).where("token_hash", "=", hash).where("rotated_at", "is", null));
const displaceQuery = prepareQuery<[number, string], unknown>(2, (db, now, handle) =>
  db.updateTable("refresh_tokens").set({ rotated_at: now }).where("session_handle", "=", handle).where("rotated_at", "is", null));
const extendQuery = prepareQuery<[number, number, string], unknown>(3, (db, expiresAt, now, handle) =>
  db.updateTable("sessions").set({ expires_at: expiresAt, last_refreshed_at: now }).where("handle", "=", handle).where("revoked_at", "is", null));
type SessionState = { handle: string; user_id: string; revoked_at: number | null; expires_at: number; verified_at: number | null };
const selectSessionState = (db: Kysely<DB>) =>
  db.selectFrom("sessions as s").innerJoin("users as u", "u.id", "s.user_id")
    .leftJoin("verified_emails as v", (j) => j.onRef("v.user_id", "=", "s.user_id").onRef("v.email", "=", "u.email"))
    .select(["s.handle", "s.user_id", "s.revoked_at", "s.expires_at", "v.verified_at"]);
const sessionStateQuery = prepareQuery<[string], SessionState>(1, (db, handle) =>
  selectSessionState(db).where("s.handle", "=", handle));
// PostgreSQL: the session-state reads of concurrent requests go out as one query (read-batch.ts).
const sessionStatesQuery = prepareQuery<[string[]], SessionState>(1, (db, handles) =>
  selectSessionState(db).where(sql<boolean>`s.handle = any(${handles})`));
const batchedSessionState = batchReads<string, SessionState>(async (db, handles) =>
  new Map((await sessionStatesQuery(db, handles)).rows.map((r) => [r.handle, r])));
const emailVerifiedQuery = prepareQuery<[string], { id: string; primary_user_id: string | null; verified_at: number | null }>(1, (db, userId) =>
  db.selectFrom("users as u")
    .leftJoin("verified_emails as v", (j) => j.onRef("v.user_id", "=", "u.id").onRef("v.email", "=", "u.email"))
    .select(["u.id", "u.primary_user_id", "v.verified_at"]).where("u.id", "=", userId));

const changed = (r: { numAffectedRows?: bigint }) => Number(r.numAffectedRows ?? 0);

export async function insertRefreshToken(db: Kysely<DB>, row: RefreshTokenRow): Promise<void> {
  await insertRefreshTokenQuery(db, row.token_hash, row.session_handle, row.parent_hash, row.created_at, row.expires_at, row.rotated_at);
}

/** A refresh token with the state of its session and whether its user's email is verified, by token hash. */
export async function findRefreshToken(db: Kysely<DB>, tokenHash: string) {
  return (await findRefreshTokenQuery(db, tokenHash)).rows[0];
}

/** Compare-and-swap: marks a live token rotated. False when another request rotated it first. */
export async function markRefreshTokenRotated(db: Kysely<DB>, tokenHash: string, now: number): Promise<boolean> {
  return changed(await markRotatedQuery(db, now, tokenHash)) === 1;
}

/** Marks every other live token of the session rotated (siblings minted in a grace window). */
export async function displaceLiveRefreshTokens(db: Kysely<DB>, sessionHandle: string, now: number): Promise<number> {
  return changed(await displaceQuery(db, now, sessionHandle));
}

/** Slides a live session's expiry forward. False when it was revoked meanwhile. */
export async function extendSession(db: Kysely<DB>, handle: string, expiresAt: number, now: number): Promise<boolean> {
  return changed(await extendQuery(db, expiresAt, now, handle)) === 1;
}

/** Marks a session just inserted as one someone else acts in (core/sessions.ts SessionStart.actor), ending at `endsAt`. */
export async function setSessionActor(db: Kysely<DB>, handle: string, actor: string, endsAt: number | null): Promise<void> {
  await db.updateTable("sessions").set({ actor, ends_at: endsAt }).where("handle", "=", handle).execute();
}

/** A session that is neither revoked nor expired at `now`, by handle. */
export async function findLiveSession(db: Kysely<DB>, handle: string, now: number): Promise<SessionRow | undefined> {
  return db.selectFrom("sessions").selectAll().where("handle", "=", handle).where("revoked_at", "is", null).where("expires_at", ">", now).executeTakeFirst();
}

/** Who acts in a session (its `actor` JSON), or null for the person's own; undefined when there is no such session. */
export async function findSessionActor(db: Kysely<DB>, handle: string): Promise<string | null | undefined> {
  const r = await db.selectFrom("sessions").select("actor").where("handle", "=", handle).executeTakeFirst();
  return r === undefined ? undefined : r.actor;
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
export async function findSessionState(db: Kysely<DB>, handle: string): Promise<SessionState | undefined> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return batchedSessionState(db, handle);
  return (await sessionStateQuery(db, handle)).rows[0];
}

/** Whether a user's current email is verified, and the person they belong to (undefined: no such user), in one query. */
export async function findEmailVerified(db: Kysely<DB>, userId: string): Promise<{ verified: boolean; personId: string } | undefined> {
  const r = (await emailVerifiedQuery(db, userId)).rows[0];
  return r ? { verified: r.verified_at !== null, personId: r.primary_user_id ?? r.id } : undefined;
}
