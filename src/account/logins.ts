import type { Kysely } from "kysely";
import type { CoreContext } from "../core/context.js";
import { insertEvent } from "../store/events.js";
import type { DB } from "../store/schema.js";
import { deleteUser } from "../store/users.js";
import { findMembers, reauthenticate, type AccountSubject } from "./reauth.js";

/** One way into my account, as the account page lists it: never a secret. */
export interface MyLogin {
  recipeUserId: string;
  method: "emailpassword" | "thirdparty" | "passwordless" | "webauthn";
  /** The login's address. */
  email: string;
  /** The provider of a third-party login, else null. */
  provider: string | null;
  /** Passkeys of a passkey login, else null. */
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
  return readLogins(ctx.store.db, found.personId, found.members, s.userId);
}

async function readLogins(db: Kysely<DB>, personId: string, members: string[], currentId: string): Promise<MyLogin[]> {
  if (members.length === 0) return [];
  const rows = await db.selectFrom("users as u")
    .leftJoin("email_password_credentials as c", "c.user_id", "u.id")
    .leftJoin("third_party_identities as i", "i.user_id", "u.id")
    .leftJoin("webauthn_accounts as w", "w.user_id", "u.id")
    .leftJoin("passwordless_users as p", "p.user_id", "u.id")
    .select(["u.id", "u.email", "u.time_joined", "c.user_id as password", "i.provider_id", "w.user_id as passkey", "p.user_id as code"])
    .where("u.id", "in", members).orderBy("u.time_joined").orderBy("u.id").execute();
  const counts = await db.selectFrom("webauthn_credentials").select(["user_id", (eb) => eb.fn.countAll<number>().as("n")]).where("user_id", "in", members).groupBy("user_id").execute();
  // The account's own login first (its id is the account's), then oldest first.
  rows.sort((a, b) => (a.id === personId ? -1 : b.id === personId ? 1 : 0));
  return rows.map((r) => ({
    recipeUserId: r.id,
    method: r.password ? "emailpassword" : r.provider_id ? "thirdparty" : r.passkey ? "webauthn" : "passwordless",
    email: r.email, provider: r.provider_id ?? null,
    passkeys: r.passkey ? Number(counts.find((c) => c.user_id === r.id)?.n ?? 0) : null,
    addedAt: Number(r.time_joined), current: r.id === currentId, primary: r.id === personId,
  }));
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
    const [removed] = await readLogins(tx, found.personId, [recipeUserId], s.userId);
    await deleteUser(tx, recipeUserId);
    await insertEvent(tx, { at: now, type: "user.login_removed", userId: found.personId, data: { recipeUserId, method: removed.method, source: "account" } });
    return { status: "OK", logins: await readLogins(tx, found.personId, found.members.filter((m) => m !== recipeUserId), s.userId) };
  });
}
