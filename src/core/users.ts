import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import * as people from "../store/people.js";
import * as users from "../store/users.js";
import { insertEvent } from "../store/events.js";
import type { CoreContext } from "./context.js";
import { canonicalEmail } from "./emails.js";
import { linkAfterVerification } from "./linking.js";
import { checkPersonDeletion } from "./person-deletion.js";
import { endWaysIn } from "./ways-in.js";
import { findByAddress, readLogins, userFieldsOf, type Login, type LoginKind } from "./logins.js";

/**
 * One login method of a user as the API shows it. A method adds its own fields (a provider, the
 * ids of passkeys) by declaration merging in its room (`declare module ".../core/users.js"`), and
 * its Room.logins puts them in (core/logins.ts): the kernel never names a method.
 */
export interface LoginMethod {
  recipeId: string;
  recipeUserId: string;
  email: string;
  timeJoined: number;
  verified: boolean;
}

/** A user as the API and the CLI show it: never a hash or a token. */
export interface UserView {
  id: string;
  email: string;
  timeJoined: number;
  verified: boolean;
  /** True when more than one recipe user is linked into this person (account linking). */
  isPrimaryUser: boolean;
  loginMethods: LoginMethod[];
  /** The methods' own fields at the top of the USER object (LoginKind.userFields), in the rooms' order. */
  fields: Record<string, unknown>;
}

export interface FieldError { id: string; error: string }

/** A login as a USER object's login method, `verified` when the person verified its address. */
export function toLoginMethod(l: Login, verified: boolean): LoginMethod {
  return { recipeId: l.recipeId, recipeUserId: l.recipeUserId, email: l.email, timeJoined: l.createdAt, verified, ...l.fields };
}

/** The view of a person from their rows, their logins (oldest first) and which addresses they verified. */
export function buildUserView(kinds: readonly LoginKind[], p: { row: users.UserRow; members: readonly users.UserRow[]; logins: readonly Login[]; isVerified: (email: string) => boolean }): UserView {
  const timeJoined = Math.min(...[p.row, ...p.members].map((m) => Number(m.time_joined)));
  return {
    id: p.row.id, email: p.row.email, timeJoined, verified: p.isVerified(p.row.email), isPrimaryUser: p.members.length > 0,
    loginMethods: p.logins.map((l) => toLoginMethod(l, p.isVerified(l.email))), fields: userFieldsOf(kinds, p.logins),
  };
}

/**
 * Loads the person a user id names (the id of the person or of any of their login methods), with
 * every login method of every recipe user linked to them, or undefined. An address verified on
 * one method counts for the person, so each method's `verified` is the person's for its address.
 */
export async function getUser(ctx: Pick<CoreContext, "store" | "logins">, id: string, db: Kysely<DB> = ctx.store.db): Promise<UserView | undefined> {
  const person = await people.findPersonRows(db, id);
  if (!person) return undefined;
  const { personId, row, others } = person;
  const memberIds = [personId, ...others.map((m) => m.id)];
  const logins = await readLogins(db, ctx.logins, memberIds);
  const addresses = [...new Set([row.email, ...logins.map((l) => l.email)])];
  const verified = new Set((await Promise.all(addresses.map(async (a) => ((await people.isVerifiedForPerson(db, personId, a)) ? [a] : [])))).flat());
  const view = buildUserView(ctx.logins, { row, members: others, logins, isVerified: (a) => verified.has(a) });
  return { ...view, isPrimaryUser: memberIds.length > 1 };
}

/** The USER object of PROTOCOL.md §6. */
export function toUserJson(u: UserView) {
  return {
    id: u.id,
    email: u.email,
    timeJoined: u.timeJoined,
    emails: [...new Set(u.loginMethods.map((m) => m.email))],
    phoneNumbers: [] as string[],
    ...u.fields,
    tenantIds: ["public"],
    isPrimaryUser: u.isPrimaryUser,
    loginMethods: u.loginMethods.map(({ recipeId, recipeUserId, email, timeJoined, verified, ...fields }) => ({
      recipeId, recipeUserId, tenantIds: ["public"], email, timeJoined, verified, ...fields,
    })),
  };
}

/**
 * Finds a user by id or by email. An email may name several users (a password login and a
 * provider's login are separate users); one the address signs in alone (LoginKind.signsInByAddress)
 * is preferred, then the oldest.
 */
export async function findUser(ctx: CoreContext, idOrEmail: string): Promise<UserView | undefined> {
  const db = ctx.store.db;
  if (!idOrEmail.includes("@")) return getUser(ctx, idOrEmail.trim());
  const email = canonicalEmail(idOrEmail);
  const [preferred] = await findByAddress(db, ctx.logins, email, { preferred: true });
  if (preferred !== undefined) return getUser(ctx, preferred);
  const [first] = await users.findUsersByEmail(db, email);
  return first ? getUser(ctx, first.id) : undefined;
}

/** Marks the user's current email verified. Returns false when it already was. */
export async function verifyUserEmail(ctx: CoreContext, userId: string, source = "api"): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const row = await users.findUserById(tx, userId);
    if (!row) return false;
    const changed = await users.markEmailVerified(tx, userId, row.email, now);
    if (changed) {
      await insertEvent(tx, { at: now, type: "user.email_verified", userId, data: { email: row.email, source } });
      await linkAfterVerification(tx, ctx, userId, row.email, source);
    }
    return changed;
  });
}

/**
 * Deletes the person a user id names, every login method linked into them included, and
 * everything attached; the audit log keeps the event. A room may refuse (409, its reason: see
 * core/person-deletion.ts), and nothing is deleted.
 */
export async function deleteUser(ctx: CoreContext, userId: string, source = "api"): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const personId = await people.findPersonId(tx, userId);
    if (personId === undefined) return false;
    await checkPersonDeletion(tx, ctx, personId);
    // Every way in ends first, as on any security event (an app's grant is not a row of the person's).
    await endWaysIn(tx, ctx, { userId: personId, reason: "deleted", source });
    for (const d of ctx.personDeletion) await d.before?.(tx, ctx, { personId, now, source });
    const members = await people.findPersonMemberIds(tx, personId);
    for (const id of members.reverse()) await users.deleteUser(tx, id);
    await insertEvent(tx, { at: now, type: "user.deleted", userId: personId, data: { source, ...(members.length > 1 ? { recipeUserIds: members } : {}) } });
    return true;
  });
}

/** Lists users, oldest first. */
export async function listUsers(ctx: CoreContext, opts: { limit?: number; offset?: number } = {}): Promise<UserView[]> {
  const rows = await users.listUsers(ctx.store.db, { limit: opts.limit ?? 100, offset: opts.offset ?? 0 });
  const out: UserView[] = [];
  for (const r of rows) {
    const u = await getUser(ctx, r.id);
    if (u) out.push(u);
  }
  return out;
}

/**
 * Every user an id or email names: one for an id; for an email, each user with that address (a
 * password login and a provider's login are separate users), oldest first. Admin tools list
 * them and ask for the id rather than guess which one was meant.
 */
export async function findUsersByRef(ctx: CoreContext, idOrEmail: string): Promise<UserView[]> {
  const db = ctx.store.db;
  if (!idOrEmail.includes("@")) {
    const u = await getUser(ctx, idOrEmail.trim());
    return u ? [u] : [];
  }
  const email = canonicalEmail(idOrEmail);
  const ids = new Set((await users.findUsersByEmail(db, email)).map((r) => r.id));
  for (const id of await findByAddress(db, ctx.logins, email, { preferred: true })) ids.add(id);
  const out = new Map<string, UserView>();
  for (const id of ids) {
    const u = await getUser(ctx, id);
    if (u) out.set(u.id, u);
  }
  return [...out.values()].sort((a, b) => a.timeJoined - b.timeJoined);
}
