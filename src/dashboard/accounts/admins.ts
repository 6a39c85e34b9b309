import type { CoreContext } from "../../core/context.js";
import { canonicalEmail, isValidEmail } from "../../core/emails.js";
import { AuthError, badInput } from "../../core/errors.js";
import { checkNewPassword, hashPassword } from "../../core/passwords.js";
import { insertEvent } from "../../store/events.js";
import { isUniqueViolation } from "../../store/database.js";
import { createId } from "../../util/random.js";
import { adminTotpUri, createAdminTotpSecret, sealAdminTotpSecret } from "./second-factor.js";
import * as store from "./store.js";

/**
 * Admin accounts of the dashboard: created, reset and removed from the CLI (`authsvc admins …`),
 * never from a web page, so a stolen dashboard session cannot mint itself a lasting account.
 * Every change is one transaction with its event (`admin.*`, naming the admin in events.admin_id);
 * bcrypt runs before the transaction, on the hash pool. `source` says who did it ("cli").
 */

/** A new second factor, shown once: the Base32 secret and the URI an authenticator app scans. */
export interface NewSecondFactor { secret: string; uri: string }
export interface AdminSummary { id: string; email: string; hasSecondFactor: boolean; createdAt: number; liveSessions: number }

/** Creates an admin with a password and a second factor (returned once, never stored in clear when AUTHSVC_SECRET is set). */
export async function createAdmin(ctx: CoreContext, input: { email: string; password: string; source: string }): Promise<{ id: string; email: string } & NewSecondFactor> {
  const email = checkAdminEmail(input.email);
  await checkAdminPassword(ctx, input.password, email);
  const hash = await hashPassword(input.password, ctx.config.bcryptCost);
  const id = createId();
  const secret = createAdminTotpSecret();
  const now = ctx.clock.now();
  try {
    await ctx.store.writeTx(async (tx) => {
      await store.insertAdmin(tx, { id, email, password_hash: hash, totp_secret_enc: sealAdminTotpSecret(secret, ctx.config.secret, id), totp_last_step: 0, created_at: now, updated_at: now });
      await insertEvent(tx, { at: now, type: "admin.created", userId: null, adminId: id, data: { email, source: input.source } });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AuthError("CONFLICT", `an admin with the address ${email} already exists`);
    throw err;
  }
  return { id, email, secret, uri: adminTotpUri(secret, ctx.config.pagesProductName, email) };
}

/** Sets a new password and ends the admin's sessions (whoever knew the old one is signed out). */
export async function resetAdminPassword(ctx: CoreContext, input: { email: string; password: string; source: string }): Promise<{ id: string; sessionsRevoked: number }> {
  const admin = await requireAdmin(ctx, input.email);
  await checkAdminPassword(ctx, input.password, admin.email);
  const hash = await hashPassword(input.password, ctx.config.bcryptCost);
  const now = ctx.clock.now();
  const revoked = await ctx.store.writeTx(async (tx) => {
    if (!(await store.updateAdmin(tx, admin.id, { password_hash: hash, updated_at: now }))) throw unknownAdmin(admin.email);
    const n = await store.deleteAdminSessions(tx, admin.id);
    await insertEvent(tx, { at: now, type: "admin.password_reset", userId: null, adminId: admin.id, data: { email: admin.email, sessionsRevoked: n, source: input.source } });
    return n;
  });
  return { id: admin.id, sessionsRevoked: revoked };
}

/**
 * Issues a new second factor (or, with `remove`, leaves the admin without one: refused at sign-in
 * until the next reset) and ends the admin's sessions. The old secret stops working at once.
 */
export async function resetAdminSecondFactor(ctx: CoreContext, input: { email: string; remove?: boolean; source: string }): Promise<{ id: string; sessionsRevoked: number; secondFactor?: NewSecondFactor }> {
  const admin = await requireAdmin(ctx, input.email);
  const secret = input.remove ? undefined : createAdminTotpSecret();
  const now = ctx.clock.now();
  const revoked = await ctx.store.writeTx(async (tx) => {
    // The last step stays: a code of the old secret's window can never be replayed against the new one either.
    const sealed = secret === undefined ? null : sealAdminTotpSecret(secret, ctx.config.secret, admin.id);
    if (!(await store.updateAdmin(tx, admin.id, { totp_secret_enc: sealed, updated_at: now }))) throw unknownAdmin(admin.email);
    const n = await store.deleteAdminSessions(tx, admin.id);
    await insertEvent(tx, { at: now, type: input.remove ? "admin.second_factor_removed" : "admin.second_factor_reset", userId: null, adminId: admin.id, data: { email: admin.email, sessionsRevoked: n, source: input.source } });
    return n;
  });
  return { id: admin.id, sessionsRevoked: revoked, secondFactor: secret === undefined ? undefined : { secret, uri: adminTotpUri(secret, ctx.config.pagesProductName, admin.email) } };
}

/** Removes an admin and, with it, their sessions. Their past events stay (the audit log is append-only). */
export async function removeAdmin(ctx: CoreContext, input: { email: string; source: string }): Promise<{ id: string }> {
  const admin = await requireAdmin(ctx, input.email);
  const now = ctx.clock.now();
  await ctx.store.writeTx(async (tx) => {
    if (!(await store.deleteAdmin(tx, admin.id))) throw unknownAdmin(admin.email);
    await insertEvent(tx, { at: now, type: "admin.removed", userId: null, adminId: admin.id, data: { email: admin.email, source: input.source } });
  });
  return { id: admin.id };
}

/** Every admin with whether they have a second factor and how many live sessions; no secret. */
export async function listAdmins(ctx: CoreContext): Promise<AdminSummary[]> {
  const [rows, live] = await Promise.all([store.listAdminRows(ctx.store.db), store.countLiveSessions(ctx.store.db, ctx.clock.now())]);
  return rows.map((r) => ({ id: r.id, email: r.email, hasSecondFactor: r.totp_secret_enc !== null, createdAt: r.created_at, liveSessions: live.get(r.id) ?? 0 }));
}

/** True once at least one admin exists (the sign-in page otherwise says how to create one). */
export async function hasAdmins(ctx: CoreContext): Promise<boolean> {
  return (await store.countAdmins(ctx.store.db)) > 0;
}

function checkAdminEmail(input: string): string {
  const email = canonicalEmail(input);
  if (!isValidEmail(email)) throw badInput(`not an email address: ${JSON.stringify(input)}`);
  return email;
}

async function checkAdminPassword(ctx: CoreContext, password: string, email: string): Promise<void> {
  const why = await checkNewPassword(ctx.passwordChecks, password, { minLength: ctx.config.passwordMinLength, email });
  if (why) throw badInput(why);
}

async function requireAdmin(ctx: CoreContext, input: string): Promise<store.AdminRow> {
  const email = canonicalEmail(input);
  const admin = await store.findAdminByEmail(ctx.store.db, email);
  if (!admin) throw unknownAdmin(email);
  return admin;
}

const unknownAdmin = (email: string) => new AuthError("NOT_FOUND", `no admin with the address ${email} (\`authsvc admins list\` shows them)`);
