import { defineEventHandler } from "h3";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { removeDevice } from "../devices.js";
import { requireMfaSession, requireString, sendMfaClaim } from "./session.js";

/** POST /totp/device/remove `{deviceName}` → `{didDeviceExist}`; a verified device only with `st-mfa.v` (403 otherwise). */
export const totpDeviceRemove = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const { session, s } = await requireMfaSession(event, deps);
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const r = await removeDevice(deps.ctx, s, requireString(body, "deviceName"));
    return { status: "OK", didDeviceExist: r.didDeviceExist, ...(await sendMfaClaim(event, deps, session, r.claim)) };
  });
