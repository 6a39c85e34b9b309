import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import { isUniqueViolation } from "../store/database.js";
import * as users from "../store/users.js";
import { revokeUserSessions } from "../store/sessions.js";
import * as tokens from "../store/one-time-tokens.js";
import { insertEvent } from "../store/events.js";
import { createId } from "../util/random.js";
import type { CoreContext } from "./context.js";
import { canonicalEmail, isValidEmail } from "./emails.js";
import { notifyOutbox, queueMail, websiteLink } from "./mail-queue.js";
import { checkPasswordPolicy, hashPassword, verifyPassword } from "./passwords.js";

export interface LoginMethod {
  recipeId: "emailpassword" | "thirdparty";
  recipeUserId: string;
  email: string;
  timeJoined: number;
  verified: boolean;
  thirdParty?: { id: string; userId: string };
}

/** A user as the API and the CLI show it: never a hash or a token. */
export interface UserView {
  id: string;
  email: string;
  timeJoined: number;
  verified: boolean;
  loginMethods: LoginMethod[];
}

export interface FieldError { id: string; error: string }
export type SignUpResult = { status: "OK"; user: UserView } | { status: "FIELD_ERROR"; formFields: FieldError[] };
export type SignInResult = { status: "OK"; user: UserView } | { status: "WRONG_CREDENTIALS_ERROR" };

export const EMAIL_EXISTS = "This email already exists. Please sign in instead.";

/** Loads the full view of a user, or undefined. */
export async function getUser(db: Kysely<DB>, id: string): Promise<UserView | undefined> {
  const row = await users.findUserById(db, id);
  if (!row) return undefined;
  const [cred, identities, verified] = await Promise.all([
    users.findCredentialByUserId(db, id),
    users.findIdentitiesByUserId(db, id),
    users.isEmailVerified(db, id, row.email),
  ]);
  const methods: LoginMethod[] = [];
  if (cred) methods.push({ recipeId: "emailpassword", recipeUserId: id, email: cred.email, timeJoined: Number(cred.created_at), verified: cred.email === row.email ? verified : await users.isEmailVerified(db, id, cred.email) });
  for (const i of identities) {
    methods.push({
      recipeId: "thirdparty", recipeUserId: id, email: i.email, timeJoined: Number(i.created_at),
      verified: i.email === row.email ? verified : await users.isEmailVerified(db, id, i.email),
      thirdParty: { id: i.provider_id, userId: i.provider_user_id },
    });
  }
  return { id, email: row.email, timeJoined: Number(row.time_joined), verified, loginMethods: methods };
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
    tenantIds: ["public"],
    isPrimaryUser: false,
    loginMethods: u.loginMethods.map((m) => ({
      recipeId: m.recipeId,
      recipeUserId: m.recipeUserId,
      tenantIds: ["public"],
      email: m.email,
      timeJoined: m.timeJoined,
      verified: m.verified,
      ...(m.thirdParty ? { thirdParty: m.thirdParty } : {}),
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
  const cred = await users.findCredentialByEmail(db, email);
  if (cred) return getUser(db, cred.user_id);
  const [first] = await users.findUsersByEmail(db, email);
  return first ? getUser(db, first.id) : undefined;
}

/** Validates sign-up input; errors are listed password first, like the SuperTokens SDK. */
export function validateSignUp(ctx: CoreContext, rawEmail: string, password: string): { email: string; errors: FieldError[] } {
  const email = canonicalEmail(rawEmail);
  const errors: FieldError[] = [];
  if (password === "") errors.push({ id: "password", error: "Field is not optional" });
  else {
    const why = checkPasswordPolicy(password, { minLength: ctx.config.passwordMinLength, email: isValidEmail(email) ? email : undefined });
    if (why) errors.push({ id: "password", error: why });
  }
  if (email === "") errors.push({ id: "email", error: "Field is not optional" });
  else if (!isValidEmail(email)) errors.push({ id: "email", error: "Email is invalid" });
  return { email, errors };
}

/**
 * Creates an email/password user. The password is hashed before the write transaction opens; a
 * concurrent sign-up with the same address loses on the unique index and gets the same answer as
 * a sequential one.
 */
export async function signUpWithPassword(ctx: CoreContext, input: { email: string; password: string; verified?: boolean; source?: string }): Promise<SignUpResult> {
  const { email, errors } = validateSignUp(ctx, input.email, input.password);
  if (errors.length) return { status: "FIELD_ERROR", formFields: errors };
  const exists: SignUpResult = { status: "FIELD_ERROR", formFields: [{ id: "email", error: EMAIL_EXISTS }] };
  if (await users.findCredentialByEmail(ctx.store.db, email)) return exists;
  const hash = await hashPassword(input.password, ctx.config.bcryptCost);
  const now = ctx.clock.now();
  const id = createId();
  try {
    await ctx.store.writeTx(async (tx) => {
      await users.insertUser(tx, { id, email, time_joined: now, updated_at: now });
      await users.insertCredential(tx, { user_id: id, email, password_hash: hash, created_at: now, updated_at: now });
      if (input.verified) await users.markEmailVerified(tx, id, email, now);
      await insertEvent(tx, { at: now, type: "user.signed_up", userId: id, data: { method: "emailpassword", source: input.source ?? "api" } });
    });
  } catch (err) {
    if (isUniqueViolation(err)) return exists;
    throw err;
  }
  const user = await getUser(ctx.store.db, id);
  return { status: "OK", user: user! };
}

/**
 * Checks an email and password. Unknown email, wrong password and third-party-only email all get
 * WRONG_CREDENTIALS_ERROR after one bcrypt verification, so neither body nor time tells them apart.
 * A hash of another scheme or cost is upgraded after a successful check.
 */
export async function signInWithPassword(ctx: CoreContext, input: { email: string; password: string }): Promise<SignInResult> {
  const email = canonicalEmail(input.email);
  const cred = isValidEmail(email) ? await users.findCredentialByEmail(ctx.store.db, email) : undefined;
  const stored = cred?.password_hash ?? (await ctx.dummyHash);
  const result = await verifyPassword(input.password, stored, ctx.config.bcryptCost);
  if (!cred || !result.ok) return { status: "WRONG_CREDENTIALS_ERROR" };
  if (result.needsRehash) {
    // Best effort: the password was right, so a failed upgrade (say, a locked database) must not
    // turn a correct sign-in into an error; the next sign-in tries again.
    try {
      const fresh = await hashPassword(input.password, ctx.config.bcryptCost);
      await ctx.store.writeTx((tx) => users.replacePasswordHash(tx, cred.user_id, stored, fresh, ctx.clock.now()));
    } catch (err) {
      ctx.logger.warn("password rehash failed", { userId: cred.user_id, err });
    }
  }
  const user = await getUser(ctx.store.db, cred.user_id);
  if (!user) return { status: "WRONG_CREDENTIALS_ERROR" };
  return { status: "OK", user };
}

export type SetPasswordResult = { status: "OK"; revokedSessions: number } | { status: "FIELD_ERROR"; formFields: FieldError[] } | { status: "NO_PASSWORD_LOGIN" };

/**
 * Sets a new password for a user who has an email/password login (an administrator's reset), in
 * one transaction: the new hash, every session revoked (whoever knew the old password is out),
 * every outstanding password-reset token deleted (a reset link mailed before must not undo the
 * administrator's choice), the event, and the "password changed" notice queued, as after a reset
 * by token. The outbox is notified after commit.
 */
export async function setPassword(ctx: CoreContext, userId: string, password: string, source = "api"): Promise<SetPasswordResult> {
  const cred = await users.findCredentialByUserId(ctx.store.db, userId);
  if (!cred) return { status: "NO_PASSWORD_LOGIN" };
  const why = checkPasswordPolicy(password, { minLength: ctx.config.passwordMinLength, email: cred.email });
  if (why) return { status: "FIELD_ERROR", formFields: [{ id: "password", error: why }] };
  const hash = await hashPassword(password, ctx.config.bcryptCost);
  const now = ctx.clock.now();
  const revoked = await ctx.store.writeTx(async (tx) => {
    await users.updatePasswordHash(tx, userId, hash, now);
    const n = await revokeUserSessions(tx, userId, now, "password_changed");
    const deletedResetTokens = await tokens.deleteUserTokens(tx, userId, "password_reset");
    await insertEvent(tx, { at: now, type: "user.password_changed", userId, data: { source, revokedSessions: n, deletedResetTokens } });
    await queueMail(tx, ctx, { kind: "password_changed", to: cred.email, vars: { link: websiteLink(ctx, "reset-password") } });
    return n;
  });
  notifyOutbox(ctx);
  return { status: "OK", revokedSessions: revoked };
}

/** Marks the user's current email verified. Returns false when it already was. */
export async function verifyUserEmail(ctx: CoreContext, userId: string, source = "api"): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const row = await users.findUserById(tx, userId);
    if (!row) return false;
    const changed = await users.markEmailVerified(tx, userId, row.email, now);
    if (changed) await insertEvent(tx, { at: now, type: "user.email_verified", userId, data: { email: row.email, source } });
    return changed;
  });
}

/** Deletes a user and everything attached to them; the audit log keeps the event. */
export async function deleteUser(ctx: CoreContext, userId: string, source = "api"): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const gone = await users.deleteUser(tx, userId);
    if (gone) await insertEvent(tx, { at: now, type: "user.deleted", userId, data: { source } });
    return gone;
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
  const cred = await users.findCredentialByEmail(db, email);
  if (cred) ids.add(cred.user_id);
  const out: UserView[] = [];
  for (const id of ids) {
    const u = await getUser(db, id);
    if (u) out.push(u);
  }
  return out.sort((a, b) => a.timeJoined - b.timeJoined);
}
