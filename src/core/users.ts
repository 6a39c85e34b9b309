import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import * as people from "../store/people.js";
import * as users from "../store/users.js";
import * as identityStore from "../methods/third-party/store.js";
import * as credentials from "../methods/email-password/store.js";
import * as passwordless from "../methods/passwordless/store.js";
import * as passkeys from "../methods/webauthn/store.js";
import { insertEvent } from "../store/events.js";
import type { CoreContext } from "./context.js";
import { canonicalEmail } from "./emails.js";
import { linkAfterVerification } from "./linking.js";

export interface LoginMethod {
  recipeId: "emailpassword" | "thirdparty" | "passwordless" | "webauthn";
  recipeUserId: string;
  email: string;
  timeJoined: number;
  verified: boolean;
  thirdParty?: { id: string; userId: string };
  /** A passkey login: the ids of its passkeys. */
  webauthn?: { credentialIds: string[] };
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
}

export interface FieldError { id: string; error: string }

/**
 * Loads the person a user id names (the id of the person or of any of their login methods), with
 * every login method of every recipe user linked to them, or undefined. An address verified on
 * one method counts for the person, so each method's `verified` is the person's for its address.
 */
export async function getUser(db: Kysely<DB>, id: string): Promise<UserView | undefined> {
  const personId = await people.findPersonId(db, id);
  if (personId === undefined) return undefined;
  const row = await users.findUserById(db, personId);
  if (!row) return undefined;
  const members = await people.findPersonMemberIds(db, personId);
  const verifiedCache = new Map<string, Promise<boolean>>();
  const isVerified = (email: string) => {
    if (!verifiedCache.has(email)) verifiedCache.set(email, people.isVerifiedForPerson(db, personId, email));
    return verifiedCache.get(email)!;
  };
  const methods: LoginMethod[] = [];
  let timeJoined = Number(row.time_joined);
  for (const member of members) {
    const [memberRow, cred, identities, pwless, passkeyLogin] = await Promise.all([
      member === personId ? row : users.findUserById(db, member),
      credentials.findCredentialByUserId(db, member),
      identityStore.findIdentitiesByUserId(db, member),
      passwordless.findUserByUserId(db, member),
      passkeys.findAccountByUserId(db, member),
    ]);
    if (memberRow) timeJoined = Math.min(timeJoined, Number(memberRow.time_joined));
    if (cred) methods.push({ recipeId: "emailpassword", recipeUserId: member, email: cred.email, timeJoined: Number(cred.created_at), verified: await isVerified(cred.email) });
    if (pwless) methods.push({ recipeId: "passwordless", recipeUserId: member, email: pwless.email, timeJoined: Number(pwless.created_at), verified: await isVerified(pwless.email) });
    for (const i of identities) {
      methods.push({
        recipeId: "thirdparty", recipeUserId: member, email: i.email, timeJoined: Number(i.created_at),
        verified: await isVerified(i.email), thirdParty: { id: i.provider_id, userId: i.provider_user_id },
      });
    }
    if (passkeyLogin) {
      const ids = (await passkeys.listCredentials(db, [member])).map((c) => c.id);
      methods.push({ recipeId: "webauthn", recipeUserId: member, email: passkeyLogin.email, timeJoined: Number(passkeyLogin.created_at), verified: await isVerified(passkeyLogin.email), webauthn: { credentialIds: ids } });
    }
  }
  methods.sort((a, b) => a.timeJoined - b.timeJoined);
  return { id: personId, email: row.email, timeJoined, verified: await isVerified(row.email), isPrimaryUser: members.length > 1, loginMethods: methods };
}

/** The USER object of PROTOCOL.md §6. */
export function toUserJson(u: UserView) {
  return {
    id: u.id,
    email: u.email,
    timeJoined: u.timeJoined,
    emails: [...new Set(u.loginMethods.map((m) => m.email))],
    phoneNumbers: [] as string[],
    thirdParty: u.loginMethods.filter((m) => m.thirdParty).map((m) => m.thirdParty!),
    webauthn: { credentialIds: u.loginMethods.flatMap((m) => m.webauthn?.credentialIds ?? []) },
    tenantIds: ["public"],
    isPrimaryUser: u.isPrimaryUser,
    loginMethods: u.loginMethods.map((m) => ({
      recipeId: m.recipeId,
      recipeUserId: m.recipeUserId,
      tenantIds: ["public"],
      email: m.email,
      timeJoined: m.timeJoined,
      verified: m.verified,
      ...(m.thirdParty ? { thirdParty: m.thirdParty } : {}),
      ...(m.webauthn ? { webauthn: m.webauthn } : {}),
    })),
  };
}

/**
 * Finds a user by id or by email. An email may name several users (an email/password user and a
 * third-party user are separate); the email/password one is preferred, then the oldest.
 */
export async function findUser(ctx: CoreContext, idOrEmail: string): Promise<UserView | undefined> {
  const db = ctx.store.db;
  if (!idOrEmail.includes("@")) return getUser(db, idOrEmail.trim());
  const email = canonicalEmail(idOrEmail);
  const cred = await credentials.findCredentialByEmail(db, email);
  if (cred) return getUser(db, cred.user_id);
  const [first] = await users.findUsersByEmail(db, email);
  return first ? getUser(db, first.id) : undefined;
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
 * everything attached; the audit log keeps the event.
 */
export async function deleteUser(ctx: CoreContext, userId: string, source = "api"): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const personId = await people.findPersonId(tx, userId);
    if (personId === undefined) return false;
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
    const u = await getUser(ctx.store.db, r.id);
    if (u) out.push(u);
  }
  return out;
}

/**
 * Every user an id or email names: one for an id; for an email, each user with that address (an
 * email/password user and a third-party user are separate users), oldest first. Admin tools list
 * them and ask for the id rather than guess which one was meant.
 */
export async function findUsersByRef(ctx: CoreContext, idOrEmail: string): Promise<UserView[]> {
  const db = ctx.store.db;
  if (!idOrEmail.includes("@")) {
    const u = await getUser(db, idOrEmail.trim());
    return u ? [u] : [];
  }
  const email = canonicalEmail(idOrEmail);
  const ids = new Set((await users.findUsersByEmail(db, email)).map((r) => r.id));
  const cred = await credentials.findCredentialByEmail(db, email);
  if (cred) ids.add(cred.user_id);
  const out = new Map<string, UserView>();
  for (const id of ids) {
    const u = await getUser(db, id);
    if (u) out.set(u.id, u);
  }
  return [...out.values()].sort((a, b) => a.timeJoined - b.timeJoined);
}
