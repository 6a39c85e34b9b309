import type { CoreContext } from "../core/context.js";
import { badInput } from "../core/errors.js";
import { issueSession, openSession, reopenSession, type SessionTokens } from "../core/sessions.js";
import type { WayIn } from "../core/ways-in.js";
import { insertEvent } from "../store/events.js";
import * as people from "../store/people.js";
import { createSecretToken, hashToken } from "../util/random.js";
import * as repo from "./store.js";

/**
 * Support sessions (docs/security.md, "Support sessions"): an admin on the dashboard opens a
 * session as a person, after a reason and the admin's own second factor. It is a session of the
 * kernel's table that someone else acts in (core/sessions.ts SessionStart.actor): its access tokens
 * carry RFC 8693's `act` claim `{sub: "admin:<id>", email, reason}`, it ends SUPPORT_SESSION_MS after
 * it started whatever its refreshes, the routes that change credentials, factors, logins or grants
 * refuse it (Route.support, http/guard.ts), and it is its own way in (below), which every security
 * event ends. It reaches the admin's browser through a one-time link (SUPPORT_LINK_MS, used once)
 * that sets the session cookies and goes to the app's website.
 */

/** How long a support session lasts, at most: no refresh passes it. */
export const SUPPORT_SESSION_MS = 15 * 60_000;
/** How long its hand-over link works (once). */
export const SUPPORT_LINK_MS = 5 * 60_000;
/** The longest reason kept (it is in the token, the audit log and the webhook). */
export const MAX_REASON = 500;
/** The path of the hand-over link, under the API base path. */
export const HANDOVER_PATH = "/support-session";

export interface SupportAdmin { id: string; email: string }

/** The reason as kept: one line, trimmed, 1 to MAX_REASON characters (a support session always says why). */
export function parseSupportReason(value: unknown): string {
  if (typeof value !== "string") throw badInput("reason must be a string");
  const r = value.replace(/\s+/g, " ").trim();
  if (r === "") throw badInput("a support session needs a reason");
  if (r.length > MAX_REASON) throw badInput(`reason must be at most ${MAX_REASON} characters`);
  return r;
}

export interface StartedSupportSession { sessionHandle: string; personId: string; endsAt: number; link: string }

/**
 * Opens a support session as the person `userId` names (any of their logins) for `admin`, in one
 * transaction: the kernel session (acted for by the admin, ending in SUPPORT_SESSION_MS), its row
 * here with the hash of the hand-over link, and `support_session.started`. The admin's second
 * factor is checked by the caller (the dashboard) first. Undefined when there is no such user; a
 * banned person is refused (AuthError SIGN_IN_REFUSED, from the kernel's gate).
 */
export async function startSupportSession(ctx: CoreContext, input: { userId: string; admin: SupportAdmin; reason: string; client?: { ip?: string; userAgent?: string } }): Promise<StartedSupportSession | undefined> {
  const reason = parseSupportReason(input.reason);
  const now = ctx.clock.now();
  const endsAt = now + SUPPORT_SESSION_MS;
  const linkToken = createSecretToken();
  const source = `admin:${input.admin.id}`;
  return ctx.store.writeTx(async (tx) => {
    const personId = await people.findPersonId(tx, input.userId);
    if (personId === undefined) return undefined;
    const opened = await openSession(tx, ctx, personId, { actor: { sub: source, email: input.admin.email, reason }, endsAt, client: input.client });
    await repo.insertSupportSession(tx, {
      session_handle: opened.handle, person_id: personId, admin_id: input.admin.id, admin_email: input.admin.email, reason,
      started_at: now, ends_at: endsAt, link_hash: hashToken(linkToken), link_expires_at: now + SUPPORT_LINK_MS, ended_at: null, end_reason: null,
    });
    await insertEvent(tx, { at: now, type: "support_session.started", userId: personId, data: { sessionHandle: opened.handle, adminId: input.admin.id, admin: input.admin.email, reason, endsAt, source } });
    const link = `${ctx.config.publicUrl}${ctx.config.apiBasePath}${HANDOVER_PATH}?token=${encodeURIComponent(linkToken)}`;
    return { sessionHandle: opened.handle, personId, endsAt, link };
  });
}

/**
 * The hand-over link: takes it (once, before it expires) and issues the support session's tokens,
 * every earlier refresh token of it displaced. Undefined when the link is unknown, used, expired,
 * or its session ended (a ban, a security event, the admin ended it).
 */
export async function redeemSupportLink(ctx: CoreContext, token: string): Promise<SessionTokens | undefined> {
  if (!/^[A-Za-z0-9_-]{16,256}$/.test(token)) return undefined;
  const now = ctx.clock.now();
  const opened = await ctx.store.writeTx(async (tx) => {
    const row = await repo.takeLink(tx, hashToken(token), now);
    if (!row) return undefined;
    return reopenSession(tx, ctx, row.session_handle);
  });
  return opened && issueSession(ctx, opened);
}

/** The person's live support sessions, newest first (the dashboard's panel). */
export async function listSupportSessions(ctx: CoreContext, personId: string): Promise<repo.SupportSessionRow[]> {
  return repo.listOpenSupportSessions(ctx.store.db, personId, ctx.clock.now());
}

/** Ends one support session of the person now (the dashboard's "End it"): false when it was not live. */
export async function endSupportSession(ctx: CoreContext, personId: string, handle: string, source: string): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const live = (await repo.listOpenSupportSessions(tx, personId, now)).filter((r) => r.session_handle === handle);
    await endRows(tx, live, now, "ended_by_admin", source);
    return live.length > 0;
  });
}

async function endRows(tx: Parameters<WayIn["end"]>[0], rows: readonly repo.SupportSessionRow[], now: number, why: string, source: string): Promise<string[]> {
  const handles = rows.map((r) => r.session_handle);
  await repo.revokeSessions(tx, handles, now, why);
  const marked = new Set(await repo.markEnded(tx, handles, now, why));
  for (const r of rows) {
    if (!marked.has(r.session_handle)) continue;
    await insertEvent(tx, { at: now, type: "support_session.ended", userId: r.person_id, data: { sessionHandle: r.session_handle, adminId: r.admin_id, admin: r.admin_email, reason: r.reason, endedBy: why, source } });
  }
  return handles.filter((h) => marked.has(h));
}

/**
 * Support sessions as a way in (core/ways-in.ts): the kernel's sessions way leaves the sessions
 * someone else acts in to this one, so every security event (a ban, sign out everywhere, a
 * password changed…) ends them here, each with its `support_session.ended`.
 */
export const supportSessionWays: WayIn = {
  id: "support-sessions",
  names: { one: "support session", many: "support sessions" },
  list: async (db, ctx, target) => (await repo.listOpenSupportSessions(db, target.personId, ctx.clock.now(), { logins: target.logins }))
    .map((r) => ({ id: r.session_handle, since: r.started_at, until: r.ends_at, login: r.user_id })),
  async end(tx, _ctx, target, how) {
    const live = await repo.listOpenSupportSessions(tx, target.personId, how.now, { logins: target.logins, keep: how.keepSession });
    return endRows(tx, live, how.now, how.reason, how.source);
  },
};

/**
 * Support sessions that ended by themselves (their 15 minutes ran out, or their session was
 * revoked alone): each gets its `support_session.ended` (at the time it ended) when the purge runs;
 * ended ones are deleted after `keepMs` (the audit log keeps their story).
 */
export async function settleLapsed(ctx: CoreContext, now: number, limit: number, keepMs: number): Promise<number> {
  const lapsed = await repo.listLapsed(ctx.store.db, now, limit);
  let n = 0;
  if (lapsed.length > 0) {
    await ctx.store.writeTx(async (tx) => {
      for (const r of lapsed) {
        const at = r.revoked_at !== null && r.revoked_at < r.ends_at ? r.revoked_at : Math.min(r.ends_at, now);
        const why = r.revoked_at !== null && r.revoked_at < r.ends_at ? (r.revoke_reason ?? "revoked") : "expired";
        if ((await repo.markEnded(tx, [r.session_handle], at, why)).length === 0) continue;
        await insertEvent(tx, { at, type: "support_session.ended", userId: r.person_id, data: { sessionHandle: r.session_handle, adminId: r.admin_id, admin: r.admin_email, reason: r.reason, endedBy: why, source: "system" } });
        n++;
      }
    });
  }
  n += await ctx.store.writeTx((tx) => repo.deleteEndedBefore(tx, now - keepMs, limit));
  return n;
}
