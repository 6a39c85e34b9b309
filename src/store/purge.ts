import type { Kysely } from "kysely";
import type { DB } from "./schema.js";

// The purge job's queries. Each "list" reads a batch of candidates (outside any write lock); each
// "delete" removes those keys in a short write transaction and re-checks the condition there, so a
// row that changed in between is left alone.

/** Hashes of one-time tokens expired at `now`, at most `limit`. */
export async function listExpiredOneTimeTokens(db: Kysely<DB>, now: number, limit: number): Promise<string[]> {
  const rows = await db.selectFrom("one_time_tokens").select("token_hash").where("expires_at", "<=", now).limit(limit).execute();
  return rows.map((r) => r.token_hash);
}

/** Deletes the given one-time tokens if they are still expired at `now`. */
export async function deleteExpiredOneTimeTokens(db: Kysely<DB>, hashes: string[], now: number): Promise<number> {
  if (hashes.length === 0) return 0;
  const r = await db.deleteFrom("one_time_tokens").where("token_hash", "in", hashes).where("expires_at", "<=", now).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Handles of sessions that ended (revoked or expired) at or before `endedBefore`, at most `limit`. */
export async function listEndedSessions(db: Kysely<DB>, endedBefore: number, limit: number): Promise<string[]> {
  // Two index range scans (revoked_at, expires_at) rather than one OR that would scan the table.
  const revoked = await db.selectFrom("sessions").select("handle").where("revoked_at", "<=", endedBefore).limit(limit).execute();
  const expired = revoked.length >= limit ? [] : await db.selectFrom("sessions").select("handle").where("expires_at", "<=", endedBefore).limit(limit - revoked.length).execute();
  return [...new Set([...revoked, ...expired].map((r) => r.handle))];
}

/** Deletes the given sessions and all their refresh tokens if they are still ended before `endedBefore`. */
export async function deleteEndedSessions(db: Kysely<DB>, handles: string[], endedBefore: number): Promise<{ sessions: number; refreshTokens: number }> {
  if (handles.length === 0) return { sessions: 0, refreshTokens: 0 };
  const ended = db.selectFrom("sessions").select("handle").where("handle", "in", handles)
    .where((eb) => eb.or([eb("revoked_at", "<=", endedBefore), eb("expires_at", "<=", endedBefore)]));
  const t = await db.deleteFrom("refresh_tokens").where("session_handle", "in", ended).executeTakeFirst();
  const s = await db.deleteFrom("sessions").where("handle", "in", ended).executeTakeFirst();
  return { sessions: Number(s.numDeletedRows), refreshTokens: Number(t.numDeletedRows) };
}

/** Hashes of refresh tokens past their own expiry at `now`, at most `limit`. */
export async function listExpiredRefreshTokens(db: Kysely<DB>, now: number, limit: number): Promise<string[]> {
  const rows = await db.selectFrom("refresh_tokens").select("token_hash").where("expires_at", "<=", now).limit(limit).execute();
  return rows.map((r) => r.token_hash);
}

/** Deletes the given refresh tokens if they are still expired at `now`. */
export async function deleteExpiredRefreshTokens(db: Kysely<DB>, hashes: string[], now: number): Promise<number> {
  if (hashes.length === 0) return 0;
  const r = await db.deleteFrom("refresh_tokens").where("token_hash", "in", hashes).where("expires_at", "<=", now).executeTakeFirst();
  return Number(r.numDeletedRows);
}
