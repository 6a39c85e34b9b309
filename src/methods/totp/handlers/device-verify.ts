import { defineEventHandler } from "h3";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { verifyDevice } from "../devices.js";
import { requireMfaSession, requireString, sendMfaClaim } from "./session.js";

/**
 * POST /totp/device/verify `{deviceName, totp}` → OK `{wasAlreadyVerified}` with a new access token
 * whose `st-mfa.c` has `totp` (and, for the first device, `recoveryCodes`, shown once) ·
 * UNKNOWN_DEVICE_ERROR · INVALID_TOTP_ERROR · LIMIT_REACHED_ERROR.
 */
export const totpDeviceVerify = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const { session, s } = await requireMfaSession(event, deps);
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const name = requireString(body, "deviceName");
    const r = await verifyDevice(deps.ctx, s, name, requireString(body, "totp", 64).trim());
    if (r.status !== "OK") return r;
    const { claim, ...rest } = r;
    return { ...rest, ...(await sendMfaClaim(event, deps, session, claim)) };
  });
