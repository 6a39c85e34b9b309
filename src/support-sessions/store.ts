import type { Kysely, Selectable } from "kysely";
import type { DB } from "../store/schema.js";
import type { SupportSessionsTable } from "./tables.js";
import "./tables.js";

export type SupportSessionRow = Selectable<SupportSessionsTable>;

const normal = (r: SupportSessionRow): SupportSessionRow => ({
  ...r, started_at: Number(r.started_at), ends_at: Number(r.ends_at), link_expires_at: Number(r.link_expires_at),
  ended_at: r.ended_at === null ? null : Number(r.ended_at),
});

export async function insertSupportSession(tx: Kysely<DB>, row: SupportSessionRow): Promise<void> {
  await tx.insertInto("support_sessions").values(row).execute();
}

/**
 * Takes the hand-over link whose hash is `linkHash` (compare-and-swap: it works once), if it has
 * not expired and its support session has not ended: the support session, else undefined.
 */
export async function takeLink(tx: Kysely<DB>, linkHash: string, now: number): Promise<SupportSessionRow | undefined> {
  const r = await tx.updateTable("support_sessions").set({ link_hash: null })
    .where("link_hash", "=", linkHash).where("link_expires_at", ">", now).where("ended_at", "is", null)
    .returningAll().executeTakeFirst();
  return r && normal(r);
}

/**
 * The support sessions that have not ended, whose kernel session is live at `now`, opened as the
 * person or held by one of `logins` (a support session acts as the whole person: every event about
 * them ends it, the first proof of an address too), all but `keep`, newest first.
 */
export async function listOpenSupportSessions(db: Kysely<DB>, personId: string, now: number, o: { logins?: readonly string[]; keep?: string } = {}): Promise<Array<SupportSessionRow & { user_id: string }>> {
  const logins = o.logins && o.logins.length > 0 ? [...o.logins] : undefined;
  let q = db.selectFrom("support_sessions as p").innerJoin("sessions as s", "s.handle", "p.session_handle")
    .selectAll("p").select("s.user_id")
    .where((eb) => (logins ? eb.or([eb("p.person_id", "=", personId), eb("s.user_id", "in", logins)]) : eb("p.person_id", "=", personId)))
    .where("p.ended_at", "is", null)
    .where("s.revoked_at", "is", null).where("s.expires_at", ">", now);
  if (o.keep !== undefined) q = q.where("p.session_handle", "!=", o.keep);
  const rows = await q.orderBy("p.started_at", "desc").orderBy("p.session_handle").execute();
  return rows.map((r) => ({ ...normal(r), user_id: r.user_id }));
}

export async function findSupportSession(db: Kysely<DB>, handle: string): Promise<SupportSessionRow | undefined> {
  const r = await db.selectFrom("support_sessions").selectAll().where("session_handle", "=", handle).executeTakeFirst();
  return r && normal(r);
}

/** Marks these support sessions ended (those not ended yet); returns the handles marked. */
export async function markEnded(tx: Kysely<DB>, handles: readonly string[], now: number, reason: string): Promise<string[]> {
  if (handles.length === 0) return [];
  const rows = await tx.updateTable("support_sessions").set({ ended_at: now, end_reason: reason, link_hash: null })
    .where("session_handle", "in", [...handles]).where("ended_at", "is", null).returning("session_handle").execute();
  return rows.map((r) => r.session_handle);
}

/** Revokes the kernel sessions of these support sessions that are still live. */
export async function revokeSessions(tx: Kysely<DB>, handles: readonly string[], now: number, reason: string): Promise<void> {
  if (handles.length === 0) return;
  await tx.updateTable("sessions").set({ revoked_at: now, revoke_reason: reason }).where("handle", "in", [...handles]).where("revoked_at", "is", null).execute();
}

/** Support sessions not marked ended whose kernel session ended by itself (its 15 minutes ran out, or a revocation of one session) before `now`. */
export async function listLapsed(db: Kysely<DB>, now: number, limit: number): Promise<Array<SupportSessionRow & { revoked_at: number | null; revoke_reason: string | null }>> {
  const rows = await db.selectFrom("support_sessions as p").leftJoin("sessions as s", "s.handle", "p.session_handle")
    .selectAll("p").select(["s.revoked_at", "s.revoke_reason"])
    .where("p.ended_at", "is", null)
    .where((eb) => eb.or([eb("p.ends_at", "<=", now), eb("s.revoked_at", "is not", null), eb("s.handle", "is", null)]))
    .orderBy("p.ends_at").limit(limit).execute();
  return rows.map((r) => ({ ...normal(r), revoked_at: r.revoked_at === null ? null : Number(r.revoked_at), revoke_reason: r.revoke_reason }));
}

/** Ended support sessions older than `before` (the audit log keeps their story). */
export async function deleteEndedBefore(tx: Kysely<DB>, before: number, limit: number): Promise<number> {
  const handles = (await tx.selectFrom("support_sessions").select("session_handle").where("ended_at", "<=", before).limit(limit).execute()).map((r) => r.session_handle);
  if (handles.length === 0) return 0;
  const r = await tx.deleteFrom("support_sessions").where("session_handle", "in", handles).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Two people joined: the support sessions of the one joined in are the other's. */
export async function moveSupportSessions(tx: Kysely<DB>, from: string, to: string): Promise<number> {
  const r = await tx.updateTable("support_sessions").set({ person_id: to }).where("person_id", "=", from).executeTakeFirst();
  return Number(r.numUpdatedRows);
}
