import type { Kysely } from "kysely";
import type { DB } from "./schema.js";

/**
 * What happened to a person lately, for the dashboard's person page: their events and the mails
 * queued to their addresses. Only what an operator may see: a mail's kind, state and times, never
 * its subject or body (a body holds a live link until it is sent, and is scrubbed after).
 */

export interface RecentEventRow { id: number; at: number; type: string; user_id: string | null; data: string | null }

/** The newest events of any of `userIds` (events_user_idx), newest first. */
export async function listRecentEventsOfUsers(db: Kysely<DB>, userIds: readonly string[], limit: number): Promise<RecentEventRow[]> {
  if (userIds.length === 0) return [];
  return db.selectFrom("events").select(["id", "at", "type", "user_id", "data"]).where("user_id", "in", [...userIds])
    .orderBy("id", "desc").limit(limit).execute();
}

export interface RecentMailRow { id: string; kind: string; to_address: string; status: string; attempts: number; created_at: number; sent_at: number | null }

/** The newest outbox rows to any of `addresses`, newest first, without subject or bodies. */
export async function listRecentMailsTo(db: Kysely<DB>, addresses: readonly string[], limit: number): Promise<RecentMailRow[]> {
  if (addresses.length === 0) return [];
  return db.selectFrom("mail_outbox").select(["id", "kind", "to_address", "status", "attempts", "created_at", "sent_at"])
    .where("to_address", "in", [...addresses]).orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
}
