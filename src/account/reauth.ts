import type { Kysely } from "kysely";
import type { CoreContext } from "../core/context.js";
import { badInput } from "../core/errors.js";
import { admitSignIn, settleSignIn } from "../core/limits.js";
import { verifyPassword } from "../core/passwords.js";
import { findPersonId, findPersonMemberIds } from "../store/people.js";
import type { DB } from "../store/schema.js";
import { findSessionStart } from "./store.js";
import type { LoginKind, PasswordLogins } from "../core/logins.js";

/** Whose account a self-service request acts on: the session's login method and person. */
export interface AccountSubject { userId: string; personId: string; sessionHandle: string }

/** A person without a password proves themselves by a sign-in at most this long ago. */
export const RECENT_SIGN_IN_MS = 10 * 60_000;

/** Every login method of the person (their recipe user ids); [] when the user is gone. */
export async function findMembers(db: Kysely<DB>, userId: string): Promise<{ personId: string; members: string[] } | undefined> {
  const personId = await findPersonId(db, userId);
  return personId === undefined ? undefined : { personId, members: await findPersonMemberIds(db, personId) };
}

/** A login with a password (LoginKind.password): its address, its stored hash, and its kind's store. */
export interface PasswordLogin { recipeUserId: string; email: string; hash: string; store: PasswordLogins }

/** The recipe user's password login, if it is one (of any kind that has passwords). */
export async function findPasswordLoginOf(db: Kysely<DB>, kinds: readonly LoginKind[], recipeUserId: string): Promise<PasswordLogin | undefined> {
  for (const k of kinds) {
    const found = k.password && (await k.password.find(db, recipeUserId));
    if (found) return { ...found, store: k.password! };
  }
  return undefined;
}

/** The person's password login, if they have one. */
export async function findPasswordLogin(db: Kysely<DB>, kinds: readonly LoginKind[], personId: string): Promise<PasswordLogin | undefined> {
  for (const id of await findPersonMemberIds(db, personId)) {
    const c = await findPasswordLoginOf(db, kinds, id);
    if (c) return c;
  }
  return undefined;
}

/** A required string field, or a clear 400 naming it. */
export function requireString(body: Record<string, unknown>, name: string): string {
  const v = body[name];
  if (typeof v !== "string") throw badInput(`${name} is required and must be a string`);
  return v;
}

/**
 * Re-authentication before a dangerous change (deleting the account): the current password when
 * the person has a password login (one bcrypt check, whatever the outcome, like a sign-in);
 * otherwise a session started in the last RECENT_SIGN_IN_MS, so a stolen, older session cannot do
 * it alone. "required": the person must sign in again first.
 */
export async function reauthenticate(ctx: CoreContext, s: AccountSubject, password: unknown): Promise<"ok" | "wrong" | "required"> {
  const cred = await findPasswordLogin(ctx.store.db, ctx.logins, s.personId);
  if (cred) {
    if (typeof password !== "string") throw badInput("password is required and must be a string");
    return (await checkCurrentPassword(ctx, cred, password)) ? "ok" : "wrong";
  }
  const started = await findSessionStart(ctx.store.db, s.sessionHandle);
  return started !== undefined && ctx.clock.now() - started <= RECENT_SIGN_IN_MS ? "ok" : "required";
}

/**
 * Checks the current password of a password login (password change, email change, deletion) under
 * the same per-address failure budget as POST /signin (`signin-failures`, keyed by the login's
 * address): a stolen session must not become an unlimited password oracle, and guesses here and at
 * the sign-in form share one budget. The attempt is counted before bcrypt runs (atomic on both
 * databases); a locked address answers 429 even with the right password.
 */
export async function checkCurrentPassword(ctx: CoreContext, cred: { email: string; hash: string }, password: string): Promise<boolean> {
  const ticket = await admitSignIn(ctx, cred.email);
  const ok = (await verifyPassword(password, cred.hash, ctx.config.bcryptCost)).ok;
  await settleSignIn(ctx, ticket, ok);
  return ok;
}
