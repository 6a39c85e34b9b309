import { defineEventHandler } from "h3";
import { badInput } from "../../../core/errors.js";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { createDevice } from "../devices.js";
import { requireMfaSession } from "./session.js";

/** POST /totp/device `{deviceName?}` → OK + secret, otpauth:// URI and its QR code, or DEVICE_ALREADY_EXISTS_ERROR; 403 when set-up is not allowed. */
export const totpDeviceCreate = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const { s } = await requireMfaSession(event, deps);
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const name = body.deviceName;
    if (name !== undefined && name !== null && (typeof name !== "string" || name.trim() === "" || name.length > 256)) throw badInput("deviceName must be a non-empty string of at most 256 characters");
    const r = await createDevice(deps.ctx, s, typeof name === "string" ? name : undefined);
    if (r.status !== "OK") return r;
    // authsvc's addition: the QR code as an SVG data URL, which the hosted page shows under its
    // strict CSP (img-src data:) with no script library; the SDKs draw their own from qrCodeString.
    // Loaded on first use (a few MB a server that never sets TOTP up need not hold).
    const { default: QRCode } = await import("qrcode");
    const svg = await QRCode.toString(r.qrCodeString, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
    return { ...r, qrCodeImage: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
  });
