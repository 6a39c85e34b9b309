import type { Kysely } from "kysely";
import type { CoreContext } from "../core/context.js";
import { readLogins, type LoginKind } from "../core/logins.js";
import { insertEvent } from "../store/events.js";
import type { DB } from "../store/schema.js";
import { deleteUser } from "../store/users.js";
import { findMembers, reauthenticate, type AccountSubject } from "./reauth.js";

/** One way into my account, as the account page lists it: never a secret. */
export interface MyLogin {
  recipeUserId: string;
  /** Its method's recipe id. */
  method: string;
  /** The login's address. */
  email: string;
  /** The provider of a provider's login, else null. */
  provider: string | null;
  /** How many keys the login holds (a passkey login's passkeys: the field keeps the API's name), else null. */
  passkeys: number | null;
  addedAt: number;
  /** The login this session was started with. */
  current: boolean;
  /** The login whose id is the account's id: it stays while the account does. */
  primary: boolean;
}

/** Every login method of the person: the account's first login, then the others oldest first. */
export async function listMyLogins(ctx: CoreContext, s: AccountSubject): Promise<MyLogin[]> {
  const found = await findMembers(ctx.store.db, s.userId);
  if (!found) return [];
  return listLogins(ctx.store.db, ctx.logins, found.personId, found.members, s.userId);
}

/** The logins of these members as the account page shows them (each method's own words: core/logins.ts). */
async function listLogins(db: Kysely<DB>, kinds: readonly LoginKind[], personId: string, members: string[], currentId: string): Promise<MyLogin[]> {
  if (members.length === 0) return [];
  const rows = await db.selectFrom("users").select(["id", "email", "time_joined"]).where("id", "in", members).orderBy("time_joined").orderBy("id").execute();
  const logins = new Map((await readLogins(db, kinds, members)).map((l) => [l.recipeUserId, l]));
  // The account's own login first (its id is the account's), then oldest first.
  rows.sort((a, b) => (a.id === personId ? -1 : b.id === personId ? 1 : 0));
  return rows.flatMap((r) => {
    const login = logins.get(r.id);
    if (!login) return [];
    return [{
      recipeUserId: r.id, method: login.recipeId, email: r.email, provider: login.provider ?? null, passkeys: login.keys ?? null,
      addedAt: Number(r.time_joined), current: r.id === currentId, primary: r.id === personId,
    }];
  });
}

export type RemoveLoginResult =
  | { status: "OK"; logins: MyLogin[] }
  | { status: "WRONG_CREDENTIALS_ERROR" | "REAUTHENTICATION_REQUIRED" | "UNKNOWN_LOGIN" | "LAST_LOGIN_METHOD" | "PRIMARY_LOGIN_METHOD" | "CURRENT_LOGIN_METHOD" };

/**
 * Removes one of my login methods, after re-authentication as deletion asks (the current password,
 * or a sign-in in the last minutes). Never the last way in; never the login whose id the account
 * carries (the app knows the account by it) nor the one this session signed in with. The login
 * and everything of it (its passkeys, its sessions) go in one transaction with an event.
 */
export async function removeMyLogin(ctx: CoreContext, s: AccountSubject, recipeUserId: string, password: unknown): Promise<RemoveLoginResult> {
  const proof = await reauthenticate(ctx, s, password);
  if (proof === "wrong") return { status: "WRONG_CREDENTIALS_ERROR" };
  if (proof === "required") return { status: "REAUTHENTICATION_REQUIRED" };
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx): Promise<RemoveLoginResult> => {
    const found = await findMembers(tx, s.userId);
    if (!found || !found.members.includes(recipeUserId)) return { status: "UNKNOWN_LOGIN" };
    if (found.members.length < 2) return { status: "LAST_LOGIN_METHOD" };
    if (recipeUserId === found.personId) return { status: "PRIMARY_LOGIN_METHOD" };
    if (recipeUserId === s.userId) return { status: "CURRENT_LOGIN_METHOD" };
    const [removed] = await listLogins(tx, ctx.logins, found.personId, [recipeUserId], s.userId);
    await deleteUser(tx, recipeUserId);
    await insertEvent(tx, { at: now, type: "user.login_removed", userId: found.personId, data: { recipeUserId, method: removed?.method, source: "account" } });
    return { status: "OK", logins: await listLogins(tx, ctx.logins, found.personId, found.members.filter((m) => m !== recipeUserId), s.userId) };
  });
}
