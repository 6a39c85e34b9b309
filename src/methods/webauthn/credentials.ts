import { checkMayAddWayIn, notifyLoginAdded, type LinkingSession } from "../../core/login-policy.js";
import type { Kysely } from "kysely";
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { isUniqueViolation } from "../../store/database.js";
import { insertEvent } from "../../store/events.js";
import * as people from "../../store/people.js";
import type { DB } from "../../store/schema.js";
import type { CoreContext } from "../../core/context.js";
import { getUser } from "../../core/users.js";
import { insertCredentialRow } from "./accounts.js";
import { passkeyLogins } from "./logins.js";
import { LAST_WAY_IN } from "./refusals.js";
import { createRegistrationOptions, takeOptions, verifyRegistration, type OptionsProblem, type VerifyProblem } from "./relying-party.js";
import * as store from "./store.js";

/** A passkey as the API lists it (never the public key). */
export interface CredentialView {
  webauthnCredentialId: string;
  relyingPartyId: string;
  createdAt: number;
  lastUsedAt: number | null;
  recipeUserId: string;
}

/** The passkeys of the person a user id names (every linked login), oldest first; undefined: no such user. */
export async function listPersonCredentials(ctx: CoreContext, userId: string): Promise<CredentialView[] | undefined> {
  const personId = await people.findPersonId(ctx.store.db, userId);
  if (personId === undefined) return undefined;
  const members = await people.findPersonMemberIds(ctx.store.db, personId);
  const rows = await store.listCredentials(ctx.store.db, members);
  return rows.map((r) => ({ webauthnCredentialId: r.id, relyingPartyId: r.rp_id, createdAt: Number(r.created_at), lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at), recipeUserId: r.user_id }));
}

/**
 * Who the passkeys page is adding a passkey for: the person's address, and their passkey logins
 * (a new passkey goes on the first; without one, a passkey login is linked to the person).
 */
export async function describePasskeyOwner(ctx: CoreContext, userId: string): Promise<{ email: string; passkeyLogins: { recipeUserId: string; email: string }[] } | undefined> {
  const person = await getUser(ctx, userId);
  if (!person) return undefined;
  return { email: person.email, passkeyLogins: person.loginMethods.filter((m) => m.recipeId === "webauthn").map((m) => ({ recipeUserId: m.recipeUserId, email: m.email })) };
}

export type AddCredentialResult =
  | { status: "OK"; webauthnCredentialId: string }
  | { status: OptionsProblem | "INVALID_CREDENTIALS_ERROR" }
  | VerifyProblem
  | { status: "REGISTER_CREDENTIAL_NOT_ALLOWED"; reason: string };

/**
 * POST /webauthn/credential: adds a passkey to the passkey login `recipeUserId` of the signed-in
 * person, with registration options made for that login's address. A passkey is a way in: the
 * session must pass core/login-policy.ts (second factor complete, fresh sign-in, verified person),
 * and the person is mailed.
 */
export async function addCredential(ctx: CoreContext, input: { session: LinkingSession; recipeUserId: string; optionsId: string; credential: RegistrationResponseJSON }): Promise<AddCredentialResult> {
  const options = await takeOptions(ctx, input.optionsId, "registration");
  if (typeof options === "string") return { status: options };
  const notAllowed = { status: "REGISTER_CREDENTIAL_NOT_ALLOWED", reason: "Passkeys can only be added to a passkey login of the signed-in user, with options made for its address." } as const;
  const [mine, theirs, account] = await Promise.all([
    people.findPersonId(ctx.store.db, input.session.userId), people.findPersonId(ctx.store.db, input.recipeUserId), store.findAccountByUserId(ctx.store.db, input.recipeUserId),
  ]);
  if (mine === undefined || mine !== theirs || !account || account.email !== options.email) return notAllowed;
  const unverified = { status: "REGISTER_CREDENTIAL_NOT_ALLOWED", reason: "Verify the address of this account before adding a passkey." } as const;
  if ((await checkMayAddWayIn(ctx.store.db, ctx, mine, input.session)) !== "ok") return unverified;
  const verified = await verifyRegistration(ctx, options, input.credential);
  if ("status" in verified) return verified;
  const now = ctx.clock.now();
  try {
    const refused = await ctx.store.writeTx(async (tx) => {
      if ((await checkMayAddWayIn(tx, ctx, mine, input.session)) !== "ok") return true;
      await insertCredentialRow(tx, account.user_id, ctx.config.webauthnRpId, verified, now);
      await insertEvent(tx, { at: now, type: "webauthn.credential_added", userId: mine, data: { recipeUserId: account.user_id, credentialId: verified.id, source: "api" } });
      await notifyLoginAdded(tx, ctx, mine, account.user_id, { key: passkeyLogins.names.signsInWith });
      return false;
    });
    if (refused) return unverified;
  } catch (err) {
    if (isUniqueViolation(err)) return { status: "INVALID_CREDENTIALS_ERROR" };
    throw err;
  }
  return { status: "OK", webauthnCredentialId: verified.id };
}

/** Registration options for adding a passkey to a login the caller has already shown is theirs. */
export async function createOptionsForAccount(ctx: CoreContext, account: store.AccountRow) {
  const existing = await store.listCredentials(ctx.store.db, [account.user_id]);
  return createRegistrationOptions(ctx, { email: account.email, userId: account.user_id, exclude: existing.map((c) => ({ id: c.id })) });
}

export type RemoveCredentialResult = { status: "OK" } | { status: "CREDENTIAL_NOT_FOUND_ERROR" } | { status: "LAST_WAY_IN"; reason: string };

/**
 * Removes a passkey of the person `userId` names (the signed-in user, or an administrator's
 * choice). Never the last way in: a person whose only login is passkeys keeps at least one. The
 * check and the delete share one transaction.
 */
export async function removeCredential(ctx: CoreContext, input: { userId: string; credentialId: string; source: string }): Promise<RemoveCredentialResult> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const cred = await store.findCredential(tx, input.credentialId);
    const personId = await people.findPersonId(tx, input.userId);
    if (!cred || personId === undefined || (await people.findPersonId(tx, cred.user_id)) !== personId) return { status: "CREDENTIAL_NOT_FOUND_ERROR" } as const;
    if (!(await hasOtherWayIn(ctx, tx, personId, cred.id))) return { status: "LAST_WAY_IN", reason: LAST_WAY_IN } as const;
    await store.deleteCredential(tx, cred.id);
    await insertEvent(tx, { at: now, type: "webauthn.credential_removed", userId: personId, data: { recipeUserId: cred.user_id, credentialId: cred.id, source: input.source } });
    return { status: "OK" } as const;
  });
}

/** Whether the person can still sign in without passkey `credentialId`: another passkey, a password or a provider. */
async function hasOtherWayIn(ctx: CoreContext, db: Kysely<DB>, personId: string, credentialId: string): Promise<boolean> {
  const members = await people.findPersonMemberIds(db, personId);
  if ((await store.listCredentials(db, members)).some((c) => c.id !== credentialId)) return true;
  const person = await getUser(ctx, personId, db);
  return (person?.loginMethods ?? []).some((m) => m.recipeId !== "webauthn");
}
