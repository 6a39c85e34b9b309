import type { CoreContext } from "../../core/context.js";
import { canonicalEmail } from "../../core/emails.js";
import { admitFailureAttempt, enforceLimit, settleFailureAttempt } from "../../core/limits.js";
import { verifyPassword } from "../../core/passwords.js";
import { insertEvent } from "../../store/events.js";
import type { AdminIdentity } from "../kit.js";
import { findCodeStep, openAdminTotpSecret } from "./second-factor.js";
import { startAdminSession } from "./sessions.js";
import * as store from "./store.js";

export interface AdminSignInInput { email: string; password: string; code: string; ipKey: string; ip: string | null; userAgent: string | null }
export type AdminSignInResult =
  | { status: "OK"; admin: AdminIdentity; token: string; expiresAt: number }
  /** Unknown address, wrong password, wrong or reused code: one answer, so none of them is told apart. */
  | { status: "WRONG_CREDENTIALS" }
  /** The right password, but the admin has no second factor (after `admins reset-2fa --remove`). */
  | { status: "NO_SECOND_FACTOR" };

/**
 * Signs an admin in with password and TOTP code. Budgets of their own, not the app users': every
 * attempt counts against the client IP (`admin-signin-ip`), every failure against the submitted
 * address (`admin-signin-email`, unknown addresses too; admitted atomically before the check), and
 * a full address bucket refuses even the right password and code. An unknown address is checked against the dummy hash (same time as a
 * wrong password). The code is accepted only when its time step is later than the last accepted
 * one, in the same transaction that starts the session: a code, once used, never works again.
 */
export async function signInAdmin(ctx: CoreContext, input: AdminSignInInput): Promise<AdminSignInResult> {
  const email = canonicalEmail(input.email);
  await enforceLimit(ctx, "admin-signin-ip", input.ipKey);
  // Counted before bcrypt in one statement (atomic on both databases), given back on success.
  const ticket = await admitFailureAttempt(ctx, "admin-signin-email", email);
  const admin = email === "" ? undefined : await store.findAdminByEmail(ctx.store.db, email);
  const checked = await verifyPassword(input.password, admin?.password_hash ?? await ctx.dummyHash, ctx.config.bcryptCost);
  const now = ctx.clock.now();
  const fail = async (reason: string, status: "WRONG_CREDENTIALS" | "NO_SECOND_FACTOR" = "WRONG_CREDENTIALS"): Promise<AdminSignInResult> => {
    await settleFailureAttempt(ctx, ticket, false);
    await ctx.store.writeTx((tx) => insertEvent(tx, { at: now, type: "admin.sign_in_failed", userId: null, adminId: admin?.id ?? null, data: { email: email.slice(0, 254), reason, ip: input.ip } }));
    return { status } as AdminSignInResult;
  };
  if (!admin || !checked.ok) return fail(admin ? "password" : "unknown_admin");
  if (admin.totp_secret_enc === null) return fail("no_second_factor", "NO_SECOND_FACTOR");
  const step = findCodeStep(openAdminTotpSecret(admin.totp_secret_enc, ctx.config.secret, admin.id), input.code.trim(), now);
  if (step === undefined) return fail("code");
  const session = await ctx.store.writeTx(async (tx) => {
    if (!(await store.advanceTotpStep(tx, admin.id, step))) return undefined;
    const s = await startAdminSession(ctx, tx, { adminId: admin.id, now, ip: input.ip, userAgent: input.userAgent });
    await insertEvent(tx, { at: now, type: "admin.signed_in", userId: null, data: { source: `admin:${admin.id}`, ip: input.ip } });
    return s;
  });
  if (!session) return fail("code_reused");
  await settleFailureAttempt(ctx, ticket, true);
  return { status: "OK", admin: { id: admin.id, email: admin.email }, ...session };
}

/**
 * The admin's own second factor, asked again before a sensitive action (a support session): "ok"
 * when the code is right and later than every code accepted before (then it is used up), "wrong"
 * otherwise (a failure against the admin's address budget, as at sign-in, and an event), "none"
 * when the admin has no second factor. A full budget refuses even the right code.
 */
export async function confirmAdminCode(ctx: CoreContext, adminId: string, code: string, ip: string | null): Promise<"ok" | "wrong" | "none"> {
  const admin = await store.findAdminById(ctx.store.db, adminId);
  if (!admin) return "wrong";
  if (admin.totp_secret_enc === null) return "none";
  const ticket = await admitFailureAttempt(ctx, "admin-signin-email", admin.email);
  const now = ctx.clock.now();
  const step = findCodeStep(openAdminTotpSecret(admin.totp_secret_enc, ctx.config.secret, admin.id), code.trim(), now);
  const ok = step !== undefined && (await ctx.store.writeTx((tx) => store.advanceTotpStep(tx, admin.id, step)));
  await settleFailureAttempt(ctx, ticket, ok);
  if (!ok) await ctx.store.writeTx((tx) => insertEvent(tx, { at: now, type: "admin.second_factor_failed", userId: null, adminId: admin.id, data: { source: `admin:${admin.id}`, ip } }));
  return ok ? "ok" : "wrong";
}
