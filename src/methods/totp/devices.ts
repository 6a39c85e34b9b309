import { assertAllowedToSetUp, assertMfaComplete, completeFactor, dropRequiredFactor, readMfaState, requireFactor, type MfaClaimValue } from "../../core/mfa.js";
import type { CoreContext } from "../../core/context.js";
import { insertEvent } from "../../store/events.js";
import { findUserById } from "../../store/users.js";
import { checkCode, type CodeCheck } from "./codes.js";
import { createRecoveryCodes } from "./recovery-codes.js";
import { createTotpSecret, sealTotpSecret, totpUri, TOTP_PERIOD_S, TOTP_SKEW } from "./secrets.js";
import { deleteDevice, deleteSecondFactorData, findDevices, insertDevice, markDeviceVerified } from "./store.js";

/** The session a TOTP call is made in: devices belong to the person (`sub`). */
export interface MfaSession { userId: string; personId: string; sessionHandle: string }

export type CreateDeviceResult =
  | { status: "OK"; deviceName: string; secret: string; qrCodeString: string }
  | { status: "DEVICE_ALREADY_EXISTS_ERROR" };

/**
 * POST /totp/device: a new unverified device with a fresh secret (re-creating an unverified one of
 * the same name replaces it). Allowed when the session meets its requirements, or for the first
 * set-up right after sign-in (core/mfa.ts assertAllowedToSetUp: else 403).
 */
export async function createDevice(ctx: CoreContext, s: MfaSession, requestedName: string | undefined): Promise<CreateDeviceResult> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    assertAllowedToSetUp(await readMfaState(tx, ctx, s.personId, s.sessionHandle), "totp");
    const devices = await findDevices(tx, s.personId);
    let name = requestedName;
    if (name === undefined) {
      // N's default: "TOTP Device <number of verified devices>", bumped until free.
      let n = devices.filter((d) => d.verified_at !== null).length;
      while (devices.some((d) => d.name === `TOTP Device ${n}`)) n++;
      name = `TOTP Device ${n}`;
    }
    const existing = devices.find((d) => d.name === name);
    if (existing?.verified_at != null) return { status: "DEVICE_ALREADY_EXISTS_ERROR" as const };
    if (existing) await deleteDevice(tx, s.personId, name);
    const secret = createTotpSecret();
    await insertDevice(tx, { user_id: s.personId, name, secret_enc: sealTotpSecret(secret, ctx.config.secret, s.personId, name), period: TOTP_PERIOD_S, skew: TOTP_SKEW, created_at: now, verified_at: null });
    const user = await findUserById(tx, s.userId);
    return { status: "OK" as const, deviceName: name, secret, qrCodeString: totpUri(secret, ctx.config.pagesProductName, user?.email ?? s.personId) };
  });
}

/** GET /totp/device/list. */
export async function listDevices(ctx: CoreContext, s: MfaSession): Promise<Array<{ name: string; period: number; skew: number; verified: boolean }>> {
  const devices = await findDevices(ctx.store.db, s.personId);
  return devices.map((d) => ({ name: d.name, period: d.period, skew: d.skew, verified: d.verified_at !== null }));
}

/**
 * POST /totp/device/remove. Removing a verified device needs a session that meets its requirements
 * (403 otherwise: a password alone must not switch the second factor off). Removing the last
 * verified device turns TOTP off for the person: requirement and recovery codes go with it.
 */
export async function removeDevice(ctx: CoreContext, s: MfaSession, name: string): Promise<{ didDeviceExist: boolean; claim: MfaClaimValue }> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const state = await readMfaState(tx, ctx, s.personId, s.sessionHandle);
    const devices = await findDevices(tx, s.personId);
    const device = devices.find((d) => d.name === name);
    if (!device) return { didDeviceExist: false, claim: state.claim };
    if (device.verified_at !== null) assertMfaComplete(state);
    await deleteDevice(tx, s.personId, name);
    if (device.verified_at !== null) {
      await insertEvent(tx, { at: now, type: "mfa.totp_device_removed", userId: s.personId, data: { device: name } });
      if (!devices.some((d) => d !== device && d.verified_at !== null)) {
        await deleteSecondFactorData(tx, s.personId);
        await dropRequiredFactor(tx, s.personId, "totp");
        await insertEvent(tx, { at: now, type: "mfa.totp_disabled", userId: s.personId, data: { reason: "last_device_removed" } });
      }
    }
    return { didDeviceExist: true, claim: (await readMfaState(tx, ctx, s.personId, s.sessionHandle)).claim };
  });
}

export type VerifyDeviceResult =
  | { status: "OK"; wasAlreadyVerified: boolean; claim: MfaClaimValue; recoveryCodes?: string[] }
  | { status: "UNKNOWN_DEVICE_ERROR" }
  | Exclude<CodeCheck, { status: "OK" }>;

/**
 * POST /totp/device/verify: the first good code verifies the device, completes `totp` in this
 * session and makes TOTP required for the person; the first verified device also brings the
 * recovery codes, returned here once (only their hashes are kept).
 */
export async function verifyDevice(ctx: CoreContext, s: MfaSession, name: string, code: string): Promise<VerifyDeviceResult> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx): Promise<VerifyDeviceResult> => {
    assertAllowedToSetUp(await readMfaState(tx, ctx, s.personId, s.sessionHandle), "totp");
    const devices = await findDevices(tx, s.personId);
    const device = devices.find((d) => d.name === name);
    if (!device) return { status: "UNKNOWN_DEVICE_ERROR" };
    const r = await checkCode(tx, ctx.config.secret, s.personId, [device], code, now);
    if (r.status !== "OK") return r;
    const wasAlreadyVerified = !(await markDeviceVerified(tx, s.personId, name, now));
    let recoveryCodes: string[] | undefined;
    if (!wasAlreadyVerified) {
      await insertEvent(tx, { at: now, type: "mfa.totp_device_verified", userId: s.personId, data: { device: name } });
      if (!devices.some((d) => d.verified_at !== null)) {
        recoveryCodes = await createRecoveryCodes(tx, s.personId, now);
        await insertEvent(tx, { at: now, type: "mfa.totp_enabled", userId: s.personId });
      }
      await requireFactor(tx, s.personId, "totp", now);
    }
    const claim = await completeFactor(tx, ctx, s, "totp");
    return { status: "OK", wasAlreadyVerified, claim, ...(recoveryCodes ? { recoveryCodes } : {}) };
  });
}

export type VerifyTotpResult = { status: "OK"; claim: MfaClaimValue } | { status: "UNKNOWN_USER_ID_ERROR" } | Exclude<CodeCheck, { status: "OK" }>;

/** POST /totp/verify: a good code of any verified device completes `totp` in this session. */
export async function verifyTotp(ctx: CoreContext, s: MfaSession, code: string): Promise<VerifyTotpResult> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx): Promise<VerifyTotpResult> => {
    const devices = (await findDevices(tx, s.personId)).filter((d) => d.verified_at !== null);
    if (devices.length === 0) return { status: "UNKNOWN_USER_ID_ERROR" };
    const r = await checkCode(tx, ctx.config.secret, s.personId, devices, code, now);
    if (r.status !== "OK") return r;
    return { status: "OK", claim: await completeFactor(tx, ctx, s, "totp") };
  });
}
