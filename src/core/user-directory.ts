import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import type { UserRow } from "../store/users.js";
import * as users from "../store/users.js";
import { findPeopleIds, findUserIdsByAnyEmail, listUsersAfter, loadUserDetails, unmarkEmailVerified, type UserKey } from "../store/user-pages.js";
import { insertEvent } from "../store/events.js";
import { findPersonId } from "../store/people.js";
import type { CoreContext } from "./context.js";
import { canonicalEmail } from "./emails.js";
import { badInput } from "./errors.js";
import { findByAddress, readLogins, type LoginKind } from "./logins.js";
import { buildUserView, verifyUserEmail, type UserView } from "./users.js";

/**
 * Looking users up the way an operator or the app's backend does (admin API, CLI, export): by any
 * of their addresses, page by page, and flipping the verified mark both ways.
 */

export const MAX_PAGE_SIZE = 500;

/**
 * The views of a batch of people rows (same shape as getUser's), loaded in a fixed number of
 * queries: their linked logins and verified addresses, and every declared kind's logins.
 */
export async function loadUserViews(db: Kysely<DB>, kinds: readonly LoginKind[], rows: UserRow[]): Promise<UserView[]> {
  const d = await loadUserDetails(db, rows.map((r) => r.id));
  const logins = await readLogins(db, kinds, [...rows.map((r) => r.id), ...d.members.map((m) => m.id)]);
  return rows.map((row) => {
    const members = d.members.filter((m) => m.primary_user_id === row.id);
    const ids = new Set([row.id, ...members.map((m) => m.id)]);
    // An address verified on one of the person's methods counts for the person.
    const verified = new Set(d.verified.filter((v) => ids.has(v.user_id)).map((v) => v.email));
    return buildUserView(kinds, { row, members, logins: logins.filter((l) => ids.has(l.recipeUserId)), isVerified: (a) => verified.has(a) });
  });
}

/**
 * Every user an address belongs to (as a user's address or a login's), oldest first. An address
 * can name several users (a password login and a provider's login), so this never picks one.
 */
export async function findUsersByEmail(ctx: CoreContext, rawEmail: string): Promise<UserView[]> {
  const db = ctx.store.db;
  const email = canonicalEmail(rawEmail);
  const ids = await findPeopleIds(db, [...await findUserIdsByAnyEmail(db, email), ...await findByAddress(db, ctx.logins, email)]);
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("users").selectAll().where("id", "in", ids).orderBy("time_joined").orderBy("id").execute();
  return loadUserViews(db, ctx.logins, rows);
}

/** Opaque page cursor: the key of the last user on the page. */
export function encodeCursor(key: UserKey): string {
  return Buffer.from(JSON.stringify([key.timeJoined, key.id])).toString("base64url");
}

/** Reads a cursor made by encodeCursor; anything else is BAD_INPUT. */
export function decodeCursor(cursor: string): UserKey {
  try {
    const [timeJoined, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Number.isSafeInteger(timeJoined) && typeof id === "string" && id.length > 0 && id.length <= 200) return { timeJoined, id };
  } catch { /* falls through */ }
  throw badInput("Invalid cursor: pass back the nextCursor of the previous page unchanged.");
}

export interface UserPage { users: UserView[]; nextCursor: string | null }

/**
 * One page of users, oldest first, optionally only those whose email contains `search`.
 * `nextCursor` is null on the last page.
 */
export async function listUserPage(ctx: CoreContext, opts: { cursor?: string; limit?: number; search?: string; newestFirst?: boolean } = {}): Promise<UserPage> {
  const limit = opts.limit ?? 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw badInput(`limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
  const after = opts.cursor ? decodeCursor(opts.cursor) : undefined;
  const search = opts.search?.trim().toLowerCase() || undefined;
  // One row more than asked tells whether another page exists without a count.
  const rows = await listUsersAfter(ctx.store.db, { after, limit: limit + 1, search, newestFirst: opts.newestFirst });
  const page = rows.slice(0, limit);
  const views = await loadUserViews(ctx.store.db, ctx.logins, page);
  const last = page[page.length - 1];
  return { users: views, nextCursor: rows.length > limit ? encodeCursor({ timeJoined: Number(last.time_joined), id: last.id }) : null };
}

/**
 * Marks the user's current email verified or unverified. Returns undefined for an unknown user,
 * else whether anything changed. Unverifying does not end sessions: their `st-ev` claim is
 * re-checked against the database by the endpoints that need it.
 */
export async function setUserEmailVerified(ctx: CoreContext, userId: string, verified: boolean, source = "api"): Promise<{ changed: boolean } | undefined> {
  if (verified) {
    if (!(await users.findUserById(ctx.store.db, userId))) return undefined;
    return { changed: await verifyUserEmail(ctx, userId, source) };
  }
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const row = await users.findUserById(tx, userId);
    if (!row) return undefined;
    const changed = await unmarkEmailVerified(tx, userId, row.email);
    if (changed) await insertEvent(tx, { at: now, type: "user.email_unverified", userId, data: { email: row.email, source } });
    return { changed };
  });
}

/** The users a reference names: by id (zero or one) or by address (zero, one or several). */
export async function findUsersByRef(ctx: CoreContext, ref: string): Promise<UserView[]> {
  if (ref.includes("@")) return findUsersByEmail(ctx, ref);
  const personId = await findPersonId(ctx.store.db, ref.trim());
  if (personId === undefined) return [];
  const rows = await ctx.store.db.selectFrom("users").selectAll().where("id", "=", personId).execute();
  return loadUserViews(ctx.store.db, ctx.logins, rows);
}
