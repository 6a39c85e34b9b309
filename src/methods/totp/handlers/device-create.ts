import { defineEventHandler } from "h3";
import { badInput } from "../../../core/errors.js";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { createDevice } from "../devices.js";
import { requireMfaSession } from "./session.js";

/** POST /totp/device `{deviceName?}` → OK + secret and otpauth:// URI, or DEVICE_ALREADY_EXISTS_ERROR; 403 when set-up is not allowed. */
export const totpDeviceCreate = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const { s } = await requireMfaSession(event, deps);
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const name = body.deviceName;
    if (name !== undefined && name !== null && (typeof name !== "string" || name.trim() === "" || name.length > 256)) throw badInput("deviceName must be a non-empty string of at most 256 characters");
    return createDevice(deps.ctx, s, typeof name === "string" ? name : undefined);
  });
