import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import type { AuditLogTable } from "./tables.js";
import "./tables.js";

export type AuditRow = AuditLogTable;

export async function insertAuditRow(tx: Kysely<DB>, row: AuditRow): Promise<void> {
  await tx.insertInto("audit_log").values(row).execute();
}

/** What a listing asks for: each filter optional; newest first, or oldest first `after` a cursor (--follow). */
export interface AuditQuery {
  personId?: string;
  actor?: string;
  /** An action, or a prefix ending in "." or "*" ("mfa.", "user.*"). */
  action?: string;
  since?: number;
  until?: number;
  limit: number;
  /** Newest first, strictly older than this (at, id): the next page. */
  before?: { at: number; id: string };
  /** Oldest first, strictly newer than this (at, id): what came since (--follow). */
  after?: { at: number; id: string };
}

export async function listAuditRows(db: Kysely<DB>, q: AuditQuery): Promise<AuditRow[]> {
  let s = db.selectFrom("audit_log").selectAll();
  if (q.personId !== undefined) s = s.where("person_id", "=", q.personId);
  if (q.actor !== undefined) s = s.where("actor", "=", q.actor);
  if (q.action !== undefined) {
    const prefix = q.action.endsWith("*") ? q.action.slice(0, -1) : q.action.endsWith(".") ? q.action : undefined;
    s = prefix !== undefined ? s.where("action", "like", `${prefix}%`) : s.where("action", "=", q.action);
  }
  if (q.since !== undefined) s = s.where("at", ">=", q.since);
  if (q.until !== undefined) s = s.where("at", "<", q.until);
  if (q.before) { const b = q.before; s = s.where((eb) => eb.or([eb("at", "<", b.at), eb.and([eb("at", "=", b.at), eb("id", "<", b.id)])])); }
  if (q.after) { const a = q.after; s = s.where((eb) => eb.or([eb("at", ">", a.at), eb.and([eb("at", "=", a.at), eb("id", ">", a.id)])])); }
  const order = q.after ? "asc" : "desc";
  const rows = await s.orderBy("at", order).orderBy("id", order).limit(q.limit).execute();
  return rows.map((r) => ({ ...r, at: Number(r.at) }));
}

/** Rows older than `before` (the purge's candidates). */
export async function listOldAuditIds(db: Kysely<DB>, before: number, limit: number): Promise<string[]> {
  return (await db.selectFrom("audit_log").select("id").where("at", "<", before).limit(limit).execute()).map((r) => r.id);
}

export async function deleteAuditRows(tx: Kysely<DB>, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return Number((await tx.deleteFrom("audit_log").where("id", "in", ids).executeTakeFirst()).numDeletedRows);
}
