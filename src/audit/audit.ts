import type { Kysely } from "kysely";
import type { CoreContext } from "../core/context.js";
import { badInput } from "../core/errors.js";
import { currentRequestClient } from "../http/server.js";
import type { DB } from "../store/schema.js";
import type { EventHook, NewEvent } from "../store/events.js";
import { randomBytes } from "node:crypto";
import * as repo from "./store.js";

/**
 * The audit log (docs/security.md, "Audit log"): every security event, written by an event hook in
 * the event's own transaction (store/events.ts), so a change and its audit row commit together or
 * not at all, without a line in any caller. Each row says who did it (`actor`), whom it concerns,
 * what (`action`: the event's type), from where (the request's client IP and User-Agent; none from
 * the CLI), when, and the event's details.
 */

/** The events that are security events: exact types, and prefixes ending in ".". */
const AUDITED = [
  "session.created", "user.sign_in_failed", "session.token_theft_detected", "sessions.revoked",
  "user.signed_up", "user.password_changed", "password_reset.completed", "user.secured",
  "mfa.", "webauthn.credential_added", "webauthn.credential_removed", "webauthn.account_recovered",
  "user.linked", "user.unlinked", "user.login_removed", "user.email_changed", "user.email_verified", "user.email_unverified",
  "oauth.", "user.banned", "user.unbanned", "user.deleted", "user.deletion_scheduled", "user.roles_changed",
  "user.not_me", "signing_key.rotated", "database.restored", "admin.", "rate_limit.cleared", "role.", "support.", "support_session.",
  "organization.sso_signed_in", "organization.sso_connection_added", "organization.sso_connection_removed",
];

/** Whether an event goes in the audit log: a security event, or anything an operator did (CLI, admin API, dashboard). */
export function isAudited(e: NewEvent): boolean {
  if (AUDITED.some((a) => (a.endsWith(".") ? e.type.startsWith(a) : e.type === a))) return true;
  return operatorOf(e) !== undefined;
}

const sourceOf = (e: NewEvent): string | undefined => {
  const s = e.data && typeof e.data === "object" ? (e.data as { source?: unknown }).source : undefined;
  return typeof s === "string" ? s : undefined;
};

/** The operator behind an event: `admin:<id>` (the dashboard), `cli`, `admin-api`; undefined for a person's own act. */
function operatorOf(e: NewEvent): string | undefined {
  if (e.adminId) return `admin:${e.adminId}`;
  const s = sourceOf(e);
  return s !== undefined && (s === "cli" || s === "admin-api" || (s.startsWith("admin:") && s.length > 6)) ? s : undefined;
}

/**
 * Who did it: the operator (above); else the person it concerns, acting for themselves through
 * the API (`user:<id>`); else, with no one to name (a failed sign-in names no account, so a guess
 * at an unknown address looks the same), `anonymous` from a request or `system` (background work).
 */
function actorOf(e: NewEvent, fromRequest: boolean): string {
  return operatorOf(e) ?? (e.userId ? `user:${e.userId}` : fromRequest ? "anonymous" : "system");
}

let last = "";
/** Ids that sort by time (ms, then a counter within one ms), so a listing's order and --follow's cursor hold. */
function auditId(at: number): string {
  const head = at.toString(36).padStart(9, "0");
  const id = `${head}-${randomBytes(6).toString("hex")}`;
  last = id > last || !last.startsWith(head) ? id : `${head}-${(BigInt(`0x${last.slice(10)}`) + 1n).toString(16).padStart(12, "0")}`;
  return last;
}

/** The event hook: one audit row for each security event, in its transaction. */
export const auditHook: EventHook = async (tx: Kysely<DB>, e: NewEvent) => {
  if (!isAudited(e)) return;
  const client = currentRequestClient();
  await repo.insertAuditRow(tx, {
    id: auditId(e.at), at: e.at, actor: actorOf(e, client !== undefined), person_id: e.userId, action: e.type,
    ip: client?.ip?.slice(0, 64) || null, user_agent: client?.userAgent?.slice(0, 300) || null,
    details: e.data === undefined ? null : JSON.stringify(e.data),
  });
};

/** One row as the CLI, the admin API and the dashboard show it. */
export interface AuditEntry { id: string; at: number; actor: string; userId: string | null; action: string; ip: string | null; userAgent: string | null; details: unknown }

const entryOf = (r: repo.AuditRow): AuditEntry => ({
  id: r.id, at: Number(r.at), actor: r.actor, userId: r.person_id, action: r.action, ip: r.ip, userAgent: r.user_agent,
  details: r.details === null ? null : JSON.parse(r.details),
});

export interface AuditFilter { userId?: string; actor?: string; action?: string; since?: number; until?: number; limit?: number; cursor?: string; after?: string }

/** The most a listing returns at once. */
export const MAX_AUDIT_PAGE = 500;

/**
 * A page of the log, newest first (`cursor`: the `next` of the page before), or, with `after` (an
 * entry's id), what was written since, oldest first (`authsvc audit --follow`). Bad filters are
 * BAD_INPUT. `next` is set when older entries remain.
 */
export async function listAudit(ctx: CoreContext, f: AuditFilter): Promise<{ entries: AuditEntry[]; next: string | null }> {
  const limit = f.limit ?? 100;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_AUDIT_PAGE) throw badInput(`limit must be between 1 and ${MAX_AUDIT_PAGE}`);
  if (f.action !== undefined && !/^[a-z0-9_.]+\*?$/.test(f.action)) throw badInput("action must be an event type (user.banned) or a prefix (mfa. or mfa*)");
  const decode = (c: string | undefined, name: string) => {
    if (c === undefined) return undefined;
    if (!/^[0-9a-z]{9}-[0-9a-f]{12}$/.test(c)) throw badInput(`${name} is not one this server gave`);
    return { at: parseInt(c.slice(0, 9), 36), id: c };
  };
  const rows = await repo.listAuditRows(ctx.store.db, {
    personId: f.userId, actor: f.actor, action: f.action, since: f.since, until: f.until,
    limit: limit + 1, before: decode(f.cursor, "cursor"), after: decode(f.after, "after"),
  });
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  return { entries: page.map(entryOf), next: more && f.after === undefined ? page[page.length - 1].id : null };
}
