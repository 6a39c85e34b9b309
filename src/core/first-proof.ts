import type { Kysely } from "kysely";
import { afterCommit } from "../store/after-commit.js";
import { insertEvent } from "../store/events.js";
import * as people from "../store/people.js";
import type { DB } from "../store/schema.js";
import type { CoreContext } from "./context.js";
import { describeLogin } from "./login-policy.js";
import { removeUnprovenKeys } from "./logins.js";
import { notifyOutbox, queueMail, websiteLink } from "./mail-queue.js";
import { countEnded, endWaysIn } from "./ways-in.js";

/**
 * The first proof of an address for a person who had none verified (docs/account-linking.md,
 * "Recovery evicts what no one proved"). Until then anyone could have signed up with the address
 * and prepared the account (a pre-registered account): linked a login of their own, registered a
 * passkey, set up a second factor. The mail that now proves the address proves only the login that
 * received it, so everything else goes: the other logins leave the person (each becomes a person of
 * its own, with its sessions ended), the proving login's other passkeys are removed, every way in
 * the person held as a whole ends (an app's grant: whoever was signed in could have given it), and
 * the owner is mailed what remains. Second factors stay (a mailbox alone never removes one).
 */

/** Whether no login of the person of `recipeUserId` has `email` verified yet (read before marking it). */
export async function isFirstProof(tx: Kysely<DB>, recipeUserId: string, email: string): Promise<boolean> {
  const personId = await people.findPersonId(tx, recipeUserId);
  return personId !== undefined && !(await people.isVerifiedForPerson(tx, personId, email));
}

/** What an eviction removed: the other logins, the proving login's other keys (LoginKind.removeUnprovenKeys), the sessions ended. */
export interface Eviction { logins: string[]; keys: string[]; sessions: number }

/** The event's name for what a first proof ends (a session's revoke_reason, a room's event). */
export const EVICTION_REASON = "account_secured";

/**
 * Evicts what no one proved was the owner's, in the caller's transaction, after `isFirstProof` was
 * true. A "recovery" (password reset, passkey recovery; `keepKey`: the key it registered, a passkey)
 * also removes the proving login's other keys (its other passkeys); its caller ends every way in
 * of the person (endWaysIn): the owner signs in afresh. A "verification" (the address verified, in
 * the session of the login that proves it) removes only the other logins: their ways in end, and
 * those the person held as a whole; the proving login's sessions and the passkey it signed in with
 * are its own. The owner is mailed at `email` when anything was removed; with nothing to remove, a
 * verification changes nothing else.
 */
export async function evictUnproven(tx: Kysely<DB>, ctx: CoreContext, p: { recipeUserId: string; email: string; keepKey?: string; scope: "recovery" | "verification"; source: string }): Promise<Eviction> {
  const now = ctx.clock.now();
  const personId = (await people.findPersonId(tx, p.recipeUserId)) ?? p.recipeUserId;
  const members = await people.findPersonMemberIds(tx, personId);
  const logins = members.filter((m) => m !== p.recipeUserId);
  const recovery = p.scope === "recovery";
  const keys = recovery ? await removeUnprovenKeys(tx, ctx.logins, p.recipeUserId, p.keepKey) : [];
  // Second factors stay: a mailbox alone never removes one (docs/mfa.md); an authenticator the
  // owner does not have is removed by an operator (`users mfa reset`).
  const evicted = logins.length + keys.length > 0;
  // What no one proved ends here, while the logins are still one person: the evicted logins' ways in
  // and the person's own; a recovery's caller then ends the rest with its reason.
  const ended = evicted ? countEnded(await endWaysIn(tx, ctx, { userId: p.recipeUserId, logins, reason: EVICTION_REASON, source: p.source })) : {};
  const sessions = ended.sessions ?? 0;
  for (const id of members) await people.detachRecipeUser(tx, id, now);
  if (!evicted) return { logins, keys, sessions };
  // The proving login's id is the person now; person-owned rows of another root stay with it.
  // The event's field keeps its published name (the keys of every kind so far are passkeys).
  await insertEvent(tx, { at: now, type: "user.secured", userId: p.recipeUserId, data: { source: p.source, removedLogins: logins, removedPasskeys: keys, revokedSessions: sessions, endedWaysIn: ended } });
  for (const id of logins) await insertEvent(tx, { at: now, type: "user.unlinked", userId: id, data: { recipeUserId: id, source: p.source, reason: "unproven" } });
  await queueMail(tx, ctx, { kind: "account_secured", to: p.email, vars: { link: websiteLink(ctx, "account"), details: await describeLogin(tx, ctx.logins, p.recipeUserId) } });
  afterCommit(tx, () => notifyOutbox(ctx));
  return { logins, keys, sessions };
}
