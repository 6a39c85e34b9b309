import { createHmac, timingSafeEqual } from "node:crypto";
import type { Kysely } from "kysely";
import type { CoreContext } from "../../core/context.js";
import { insertEvent } from "../../store/events.js";
import type { DB } from "../../store/schema.js";
import { createSecretToken, hashToken } from "../../util/random.js";
import type { AdminIdentity } from "../kit.js";
import * as store from "./store.js";

/**
 * Admin sessions: an opaque 256-bit token in the cookie, only its SHA-256 in the database (a copy
 * of the table signs no one in). Short on purpose: idle after `adminSessionIdleMs` (30 min) and
 * over after `adminSessionMaxLifetimeMs` (12 h) whatever happens; both checked on every request.
 */

/** A session found for a request: who, and the CSRF token its forms carry. */
export interface AdminSession { admin: AdminIdentity; tokenHash: string; csrf: string }

// last_seen_at is written at most once a minute per session: a page load is a read, not a write.
const TOUCH_EVERY_MS = 60_000;

/** Starts a session inside the caller's transaction; returns the token for the cookie (never stored). */
export async function startAdminSession(ctx: CoreContext, tx: Kysely<DB>, o: { adminId: string; now: number; ip: string | null; userAgent: string | null }): Promise<{ token: string; expiresAt: number }> {
  const token = createSecretToken();
  const expiresAt = o.now + ctx.config.adminSessionMaxLifetimeMs;
  await store.insertAdminSession(tx, { token_hash: hashToken(token), admin_id: o.adminId, created_at: o.now, last_seen_at: o.now, expires_at: expiresAt, ip: o.ip, user_agent: o.userAgent?.slice(0, 300) ?? null });
  return { token, expiresAt };
}

/** The live session of a cookie's token, or undefined (unknown, idle too long, past its end: an ended one is deleted). */
export async function findLiveAdminSession(ctx: CoreContext, token: string): Promise<AdminSession | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const tokenHash = hashToken(token);
  const row = await store.findAdminSession(ctx.store.db, tokenHash);
  if (!row) return undefined;
  const now = ctx.clock.now();
  if (now >= row.expires_at || now >= row.last_seen_at + ctx.config.adminSessionIdleMs) {
    await ctx.store.writeTx((tx) => store.deleteAdminSession(tx, tokenHash));
    return undefined;
  }
  const admin = await store.findAdminById(ctx.store.db, row.admin_id);
  if (!admin) return undefined;
  if (now - row.last_seen_at >= TOUCH_EVERY_MS) await ctx.store.writeTx((tx) => store.touchAdminSession(tx, tokenHash, now));
  return { admin: { id: admin.id, email: admin.email }, tokenHash, csrf: deriveCsrfToken(token) };
}

/** Ends one session (sign-out), with its event. */
export async function endAdminSession(ctx: CoreContext, session: AdminSession): Promise<void> {
  const now = ctx.clock.now();
  await ctx.store.writeTx(async (tx) => {
    await store.deleteAdminSession(tx, session.tokenHash);
    await insertEvent(tx, { at: now, type: "admin.signed_out", userId: null, data: { source: `admin:${session.admin.id}` } });
  });
}

/**
 * The session's CSRF token: an HMAC of the session token, so it needs no storage, differs per
 * session, and reveals nothing of the token (which stays HttpOnly).
 */
export function deriveCsrfToken(sessionToken: string): string {
  return createHmac("sha256", sessionToken).update("authsvc admin csrf v1").digest("base64url");
}

/** Compares a submitted CSRF token with the session's in constant time. */
export function matchesCsrfToken(session: AdminSession, submitted: string | null): boolean {
  if (submitted === null) return false;
  const a = Buffer.from(submitted);
  const b = Buffer.from(session.csrf);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A message signed for one session (the flash shown after a redirect): a cookie set by anyone
 * else, e.g. a sibling subdomain, is not shown.
 */
export function signForSession(sessionToken: string, text: string): string {
  return createHmac("sha256", sessionToken).update(`authsvc admin flash v1\n${text}`).digest("base64url");
}
