import { defineEventHandler } from "h3";
import type { HttpDeps } from "../../../http/deps.js";
import { listDevices } from "../devices.js";
import { requireMfaSession } from "./session.js";

/** GET /totp/device/list → the person's devices (never their secrets). */
export const totpDeviceList = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const { s } = await requireMfaSession(event, deps);
    return { status: "OK", devices: await listDevices(deps.ctx, s) };
  });
