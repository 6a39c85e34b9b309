import { adminOpenApi as a } from "../../http/openapi/admin.js";
import { body, bodyErrors, errorsFor, json, statusOnly, tokenFields, tokenHeaders } from "../../http/openapi/components.js";
import { apiArea, type Json } from "../../http/openapi/types.js";

const withSession = [{ AccessToken: [] }, { AccessCookie: [] }];
const factorList: Json = { type: "array", items: { type: "string" } };
const failed = (status: string): Json => statusOnly(status, { currentNumberOfFailedAttempts: { type: "integer", minimum: 1 }, maxNumberOfFailedAttempts: { type: "integer" } }, ["currentNumberOfFailedAttempts", "maxNumberOfFailedAttempts"]);
const limited: Json = statusOnly("LIMIT_REACHED_ERROR", { retryAfterMs: { type: "integer", minimum: 0 } }, ["retryAfterMs"]);
const stringBody = (...keys: string[]): Json => body({ type: "object", required: keys, properties: Object.fromEntries(keys.map((k) => [k, { type: "string" }])) });
const post = (operationId: string, summary: string, rest: Json): Json => ({ post: { operationId, tags: ["mfa"], summary, security: withSession, ...rest } });

/** MFA (the `st-mfa` claim) and TOTP (FDI 1.19), with authsvc's recovery codes (docs/mfa.md). */
export const mfaArea = apiArea("mfa", "Second factor: the st-mfa claim, TOTP devices and recovery codes (docs/mfa.md)", {
  "/mfa/info": {
    put: {
      operationId: "getMfaInfo", tags: ["mfa"], summary: "The session's factors (next, already set up, allowed to set up); re-issues the access token when st-mfa changed",
      security: withSession,
      responses: {
        200: json("the MFA picture of the session", statusOnly("OK", {
          factors: { type: "object", required: ["next", "alreadySetup", "allowedToSetup"], additionalProperties: false, properties: { next: factorList, alreadySetup: factorList, allowedToSetup: factorList } },
          emails: { type: "object", additionalProperties: factorList }, phoneNumbers: { type: "object", additionalProperties: factorList }, ...tokenFields,
        }, ["factors", "emails", "phoneNumbers"]), tokenHeaders),
        ...bodyErrors(401),
      },
    },
  },
  "/totp/device": post("createTotpDevice", "A new unverified TOTP device: Base32 secret and otpauth:// URI", {
    requestBody: body({ type: "object", properties: { deviceName: { type: "string", minLength: 1, maxLength: 256 } } }),
    responses: {
      200: json("OK, or DEVICE_ALREADY_EXISTS_ERROR (a verified device has that name)", { oneOf: [
        statusOnly("OK", { deviceName: { type: "string" }, secret: { type: "string", pattern: "^[A-Z2-7]{32}$" }, qrCodeString: { type: "string", pattern: "^otpauth://totp/" }, qrCodeImage: { type: "string", pattern: "^data:image/svg\\+xml;base64,", description: "authsvc: the URI as a QR code (SVG data URL)" } }, ["deviceName", "secret", "qrCodeString", "qrCodeImage"]),
        statusOnly("DEVICE_ALREADY_EXISTS_ERROR"),
      ] }),
      ...bodyErrors(401, 403),
    },
  }),
  "/totp/device/list": {
    get: {
      operationId: "listTotpDevices", tags: ["mfa"], summary: "The user's TOTP devices (never their secrets)", security: withSession,
      responses: {
        200: json("the devices", statusOnly("OK", { devices: { type: "array", items: { type: "object", required: ["name", "period", "skew", "verified"], additionalProperties: false, properties: { name: { type: "string" }, period: { type: "integer" }, skew: { type: "integer" }, verified: { type: "boolean" } } } } }, ["devices"])),
        ...errorsFor(401),
      },
    },
  },
  "/totp/device/remove": post("removeTotpDevice", "Remove a device (a verified one only with st-mfa.v true); the last one turns TOTP off", {
    requestBody: stringBody("deviceName"),
    responses: { 200: json("OK", statusOnly("OK", { didDeviceExist: { type: "boolean" }, ...tokenFields }, ["didDeviceExist"]), tokenHeaders), ...bodyErrors(401, 403) },
  }),
  "/totp/device/verify": post("verifyTotpDevice", "Verify a device with its current code; completes totp (new access token); the first device also returns the recovery codes, once", {
    requestBody: stringBody("deviceName", "totp"),
    responses: {
      200: json("OK, UNKNOWN_DEVICE_ERROR, INVALID_TOTP_ERROR or LIMIT_REACHED_ERROR", { oneOf: [
        statusOnly("OK", { wasAlreadyVerified: { type: "boolean" }, recoveryCodes: { type: "array", items: { type: "string" } }, ...tokenFields }, ["wasAlreadyVerified"]),
        statusOnly("UNKNOWN_DEVICE_ERROR"), failed("INVALID_TOTP_ERROR"), limited,
      ] }, tokenHeaders),
      ...bodyErrors(401, 403),
    },
  }),
  "/totp/verify": post("verifyTotp", "Complete the totp factor with a code of any verified device (new access token)", {
    requestBody: stringBody("totp"),
    responses: {
      200: json("OK, UNKNOWN_USER_ID_ERROR (no verified device), INVALID_TOTP_ERROR (wrong or already used) or LIMIT_REACHED_ERROR", { oneOf: [
        statusOnly("OK", tokenFields), statusOnly("UNKNOWN_USER_ID_ERROR"), failed("INVALID_TOTP_ERROR"), limited,
      ] }, tokenHeaders),
      ...bodyErrors(401),
    },
  }),
  "/totp/recovery-code/verify": post("useRecoveryCode", "authsvc: complete the totp factor with a recovery code instead (each works once; the user is mailed)", {
    requestBody: stringBody("recoveryCode"),
    responses: {
      200: json("OK, INVALID_RECOVERY_CODE_ERROR or LIMIT_REACHED_ERROR (shared with TOTP codes)", { oneOf: [
        statusOnly("OK", { remainingRecoveryCodes: { type: "integer", minimum: 0 }, ...tokenFields }, ["remainingRecoveryCodes"]), failed("INVALID_RECOVERY_CODE_ERROR"), limited,
      ] }, tokenHeaders),
      ...bodyErrors(401),
    },
  }),
  "/totp/recovery-codes": post("createRecoveryCodes", "authsvc: a new set of ten recovery codes, shown once; the old set stops working (needs st-mfa.v true)", {
    responses: {
      200: json("the new codes, or TOTP_NOT_ENABLED_ERROR", { oneOf: [statusOnly("OK", { recoveryCodes: { type: "array", items: { type: "string" }, minItems: 10, maxItems: 10 } }, ["recoveryCodes"]), statusOnly("TOTP_NOT_ENABLED_ERROR")] }),
      ...bodyErrors(401, 403),
    },
  }),
});

/** Its admin route (admin.ts), listed under the admin API beside the user's other routes. */
export const totpAdminArea = a.extension({
  after: { path: "/users/{id}/links" },
  paths: {
    "/users/{id}/mfa": {
      delete: a.op("adminResetMfa", "Remove the user's second factor (TOTP devices, recovery codes); records mfa.reset and mails the user", {
        parameters: [a.userId], responses: { 200: json("`changed` is false when there was none", a.object({ userId: { type: "string" }, removedDevices: { type: "integer", minimum: 0 }, changed: { type: "boolean" } })), ...a.errorsFor(400) },
      }),
    },
  },
});
