import type { Kysely } from "kysely";
import type { CoreContext } from "../../core/context.js";
import { canonicalEmail, isValidEmail } from "../../core/emails.js";
import { badInput } from "../../core/errors.js";
import { enforceLimit } from "../../core/limits.js";
import { notifyOutbox, queueMail, websiteLink } from "../../core/mail-queue.js";
import { insertEvent } from "../../store/events.js";
import type { DB } from "../../store/schema.js";
import { passwordlessFlow, type FlowType } from "./flow-type.js";
import { createDevice, createUserInputCode, deviceMatches, hashLinkCode, linkCodeOf } from "./secrets.js";
import * as store from "./store.js";

export type CreateCodeResult =
  | { status: "OK"; deviceId: string; preAuthSessionId: string; flowType: FlowType }
  | { status: "GENERAL_ERROR"; message: string };

/** The configured flow, or a 400 when passwordless sign-in is off. */
export function requireFlow(ctx: CoreContext) {
  const flow = passwordlessFlow(ctx.config);
  if (!flow) throw badInput("Passwordless sign-in is off on this server (passwordlessFlowType)");
  return flow;
}

/**
 * POST /signinup/code: starts a flow for an address and mails its first code. Nothing here looks
 * at accounts, so the answer (and the per-address budget, counted for every valid address) is the
 * same whether the address has an account: an account is made or found only when a code is used.
 * `locale`: the request's (the page's), which the mail is written in when the address has no stored one.
 */
export async function createCode(ctx: CoreContext, rawEmail: string, locale?: string): Promise<CreateCodeResult> {
  const flow = requireFlow(ctx);
  const email = canonicalEmail(rawEmail);
  if (!isValidEmail(email)) return { status: "GENERAL_ERROR", message: "Email is invalid" };
  await enforceLimit(ctx, "mail-hourly", email);
  const device = createDevice();
  const now = ctx.clock.now();
  await ctx.store.writeTx(async (tx) => {
    await store.insertDevice(tx, { pre_auth_session_id: device.preAuthSessionId, email, link_code_salt: device.salt, failed_attempts: 0, created_at: now });
    await issueCode(tx, ctx, { ...device, email }, locale);
  });
  notifyOutbox(ctx);
  return { status: "OK", deviceId: device.deviceId, preAuthSessionId: device.preAuthSessionId, flowType: flow.flowType };
}

/**
 * POST /signinup/code/resend: a new code on the same device (older ones stay valid until they
 * expire, as in SuperTokens). An unknown device, or a deviceId that does not name the
 * preAuthSessionId, is RESTART_FLOW_ERROR.
 */
export async function resendCode(ctx: CoreContext, p: { deviceId: string; preAuthSessionId: string; locale?: string }): Promise<{ status: "OK" | "RESTART_FLOW_ERROR" }> {
  requireFlow(ctx);
  if (!deviceMatches(p.deviceId, p.preAuthSessionId)) return { status: "RESTART_FLOW_ERROR" };
  const found = await store.findDevice(ctx.store.db, p.preAuthSessionId);
  if (!found) return { status: "RESTART_FLOW_ERROR" };
  await enforceLimit(ctx, "mail-hourly", found.email);
  const ok = await ctx.store.writeTx(async (tx) => {
    const device = await store.findDevice(tx, p.preAuthSessionId);
    if (!device) return false; // used or restarted in between
    await issueCode(tx, ctx, { deviceId: p.deviceId, preAuthSessionId: device.pre_auth_session_id, salt: device.link_code_salt, email: device.email }, p.locale);
    return true;
  });
  if (ok) notifyOutbox(ctx);
  return { status: ok ? "OK" : "RESTART_FLOW_ERROR" };
}

/**
 * Makes a code on a device and queues its mail, in the caller's transaction. A new code that
 * happens to equal one the device already has (1 in a million per code) is drawn again.
 */
async function issueCode(tx: Kysely<DB>, ctx: CoreContext, d: { deviceId: string; preAuthSessionId: string; salt: string; email: string }, locale: string | undefined): Promise<void> {
  const flow = requireFlow(ctx);
  const now = ctx.clock.now();
  let code = createUserInputCode();
  let linkCode = linkCodeOf(d.deviceId, d.salt, code);
  while (await store.findCode(tx, d.preAuthSessionId, hashLinkCode(linkCode))) {
    code = createUserInputCode();
    linkCode = linkCodeOf(d.deviceId, d.salt, code);
  }
  const expiresAt = now + ctx.config.passwordlessCodeLifetimeMs;
  await store.insertCode(tx, { link_code_hash: hashLinkCode(linkCode), pre_auth_session_id: d.preAuthSessionId, created_at: now, expires_at: expiresAt });
  // The link code rides in the fragment: browsers never send it to a server or a link-scanning proxy.
  const link = `${websiteLink(ctx, "")}/verify?preAuthSessionId=${encodeURIComponent(d.preAuthSessionId)}&tenantId=public#${linkCode}`;
  await queueMail(tx, ctx, { kind: flow.mail, to: d.email, vars: { link, code, expiresAt, validForMs: ctx.config.passwordlessCodeLifetimeMs }, locale });
  await insertEvent(tx, { at: now, type: "passwordless.code_sent", userId: null, data: { preAuthSessionId: d.preAuthSessionId } });
}
