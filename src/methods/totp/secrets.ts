import { Secret, TOTP } from "otpauth";
import type { DeviceRow } from "./store.js";

/** RFC 6238 as the SDKs and authenticator apps expect it (N `recipe/totp/utils.ts`). */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_S = 30;
export const TOTP_SKEW = 1;

/** A new 160-bit HMAC-SHA1 key, Base32 (what authenticator apps take). */
export function createTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export { openTotpSecret, sealTotpSecret } from "./seal.js";

export function totpUri(base32: string, issuer: string, label: string): string {
  return new TOTP({ issuer, label, secret: Secret.fromBase32(base32), digits: TOTP_DIGITS, period: TOTP_PERIOD_S }).toString();
}

/** True when `code` is the device's code for `now` within ±skew steps. */
export function matchesCode(base32: string, device: Pick<DeviceRow, "period" | "skew">, code: string, now: number): boolean {
  const totp = new TOTP({ secret: Secret.fromBase32(base32), digits: TOTP_DIGITS, period: device.period });
  return totp.validate({ token: code, timestamp: now, window: device.skew }) !== null;
}

/** The code of a secret at a time (tests, and the hosted page's checks). */
export function generateCode(base32: string, at: number, period = TOTP_PERIOD_S): string {
  return new TOTP({ secret: Secret.fromBase32(base32), digits: TOTP_DIGITS, period }).generate({ timestamp: at });
}
