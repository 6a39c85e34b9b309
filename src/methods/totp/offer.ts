import type { Kysely } from "kysely";
import type { TotpDevices } from "../../core/account-operations.js";
import type { CoreContext } from "../../core/context.js";
import { dropRequiredFactor, requireFactor } from "../../core/mfa.js";
import { insertEvent } from "../../store/events.js";
import type { DB } from "../../store/schema.js";
import { findUserById } from "../../store/users.js";
import { checkCode, MAX_FAILED_ATTEMPTS, type CodeCheck } from "./codes.js";
import { createTotpSecret, sealTotpSecret } from "./secrets.js";
import { resealTotpSecret } from "./seal.js";
import { deleteDevice, deleteSecondFactorData, findDevices, insertDevice, markDeviceVerified, renameDevice } from "./store.js";

/** The person a login belongs to (devices are the person's), or undefined for an unknown id. */
async function personOf(db: Kysely<DB>, userId: string): Promise<string | undefined> {
  const u = await findUserById(db, userId);
  return u ? u.primary_user_id ?? u.id : undefined;
}

/** A refused code as the offer says it: a lock-out also tells how many failures led to it. */
function refusal(r: Exclude<CodeCheck, { status: "OK" }>) {
  return r.status === "LIMIT_REACHED_ERROR"
    ? { ...r, currentNumberOfFailedAttempts: MAX_FAILED_ATTEMPTS, maxNumberOfFailedAttempts: MAX_FAILED_ATTEMPTS }
    : r;
}

/**
 * The TOTP devices for a caller that keeps its own sessions (core/account-operations.ts
 * TotpDevices; the CDI): the FDI's rules (devices.ts) without authsvc's session gate, which the
 * caller's SDK applies to its own session. The same store, codes, replay guard and attempt limit
 * (codes.ts), so a device set up through the CDI asks for its code at authsvc's own sign-in too.
 */
export const totpDevices: TotpDevices = {
  async create(ctx, userId, p) {
    const now = ctx.clock.now();
    return ctx.store.writeTx(async (tx) => {
      const personId = await personOf(tx, userId);
      if (personId === undefined) return { status: "UNKNOWN_USER" as const };
      const devices = await findDevices(tx, personId);
      let name = p.name;
      if (name === undefined) {
        let n = devices.filter((d) => d.verified_at !== null).length;
        while (devices.some((d) => d.name === `TOTP Device ${n}` && d.verified_at !== null)) n++;
        name = `TOTP Device ${n}`;
      }
      const existing = devices.find((d) => d.name === name);
      if (existing?.verified_at != null) return { status: "DEVICE_ALREADY_EXISTS_ERROR" as const };
      if (existing) await deleteDevice(tx, personId, name);
      const secret = createTotpSecret();
      await insertDevice(tx, { user_id: personId, name, secret_enc: sealTotpSecret(secret, ctx.config.secret, personId, name), period: p.period, skew: p.skew, created_at: now, verified_at: null });
      return { status: "OK" as const, deviceName: name, secret };
    });
  },

  async rename(ctx, userId, from, to) {
    return ctx.store.writeTx(async (tx) => {
      const personId = await personOf(tx, userId);
      const devices = personId === undefined ? [] : await findDevices(tx, personId);
      const device = devices.find((d) => d.name === from);
      if (!device) return "UNKNOWN_DEVICE_ERROR" as const;
      if (devices.some((d) => d.name === to)) return "DEVICE_ALREADY_EXISTS_ERROR" as const;
      await renameDevice(tx, personId!, from, to, resealTotpSecret(ctx.config.secret, device.secret_enc, { userId: personId!, name: from }, { userId: personId!, name: to }));
      return "OK" as const;
    });
  },

  async list(ctx, userId) {
    const personId = await personOf(ctx.store.db, userId);
    const devices = personId === undefined ? [] : await findDevices(ctx.store.db, personId);
    return devices.map((d) => ({ name: d.name, period: d.period, skew: d.skew, verified: d.verified_at !== null }));
  },

  async remove(ctx, userId, name) {
    const now = ctx.clock.now();
    return ctx.store.writeTx(async (tx) => {
      const personId = await personOf(tx, userId);
      if (personId === undefined) return false;
      const devices = await findDevices(tx, personId);
      const device = devices.find((d) => d.name === name);
      if (!device) return false;
      await deleteDevice(tx, personId, name);
      if (device.verified_at !== null) {
        await insertEvent(tx, { at: now, type: "mfa.totp_device_removed", userId: personId, data: { device: name, source: "cdi" } });
        if (!devices.some((d) => d !== device && d.verified_at !== null)) {
          await deleteSecondFactorData(tx, personId);
          await dropRequiredFactor(tx, personId, "totp");
          await insertEvent(tx, { at: now, type: "mfa.totp_disabled", userId: personId, data: { reason: "last_device_removed", source: "cdi" } });
        }
      }
      return true;
    });
  },

  async verifyDevice(ctx, userId, name, code) {
    const now = ctx.clock.now();
    return ctx.store.writeTx(async (tx) => {
      const personId = await personOf(tx, userId);
      const devices = personId === undefined ? [] : await findDevices(tx, personId);
      const device = devices.find((d) => d.name === name);
      if (!device) return { status: "UNKNOWN_DEVICE_ERROR" as const };
      // The core's rule: a device verified once stays so, and its code is not checked again here.
      if (device.verified_at !== null) return { status: "OK" as const, wasAlreadyVerified: true };
      const r = await checkCode(tx, ctx.config.secret, personId!, [device], code, now);
      if (r.status !== "OK") return refusal(r);
      const wasAlreadyVerified = !(await markDeviceVerified(tx, personId!, name, now));
      if (!wasAlreadyVerified) {
        await insertEvent(tx, { at: now, type: "mfa.totp_device_verified", userId: personId!, data: { device: name, source: "cdi" } });
        // The first verified device turns the second factor on (no recovery codes: nobody would see them; the account page makes them).
        if (!devices.some((d) => d.verified_at !== null)) await insertEvent(tx, { at: now, type: "mfa.totp_enabled", userId: personId!, data: { source: "cdi" } });
        await requireFactor(tx, personId!, "totp", now);
      }
      return { status: "OK" as const, wasAlreadyVerified };
    });
  },

  async verifyCode(ctx, userId, code) {
    const now = ctx.clock.now();
    return ctx.store.writeTx(async (tx) => {
      const personId = await personOf(tx, userId);
      const devices = personId === undefined ? [] : await findDevices(tx, personId);
      if (devices.length === 0) return { status: "UNKNOWN_USER_ID_ERROR" as const };
      const r = await checkCode(tx, ctx.config.secret, personId!, devices.filter((d) => d.verified_at !== null), code, now);
      return r.status === "OK" ? { status: "OK" as const } : refusal(r);
    });
  },
};
