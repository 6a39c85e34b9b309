import { Secret, TOTP } from "otpauth";
import { decryptPrivateJwk, encryptPrivateJwk } from "../../core/signing-keys.js";

/**
 * An admin's second factor: RFC 6238 TOTP (6 digits, 30 s, ±1 step), the secret sealed at rest
 * exactly as user TOTP devices are (AES-256-GCM under AUTHSVC_SECRET when it is set, plain Base32
 * without it, i.e. in development), with the admin's id as associated data so a sealed secret
 * cannot be moved to another admin's row.
 */
export const ADMIN_TOTP_PERIOD_S = 30;
const SKEW = 1;
const aad = (adminId: string) => `admin-totp:${adminId}`;

/** A new 160-bit secret, Base32 (what authenticator apps take). */
export function createAdminTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function sealAdminTotpSecret(base32: string, serverSecret: string | undefined, adminId: string): string {
  return encryptPrivateJwk(base32, serverSecret, aad(adminId));
}

export function openAdminTotpSecret(sealed: string, serverSecret: string | undefined, adminId: string): string {
  try {
    return decryptPrivateJwk(sealed, serverSecret, aad(adminId));
  } catch {
    throw new Error(`the second-factor secret of admin ${adminId} cannot be read with the configured server secret (AUTHSVC_SECRET): run \`authsvc admins reset-2fa\` for that admin`);
  }
}

/** The otpauth:// URI an authenticator app scans. */
export function adminTotpUri(base32: string, issuer: string, email: string): string {
  return new TOTP({ issuer: `${issuer} admin`, label: email, secret: Secret.fromBase32(base32), digits: 6, period: ADMIN_TOTP_PERIOD_S }).toString();
}

/**
 * The time step a code belongs to when it is right for `now` (±1 step), else undefined. The caller
 * accepts it only when that step is later than the last one accepted (advanceTotpStep): a code
 * works once, and so does every earlier code.
 */
export function findCodeStep(base32: string, code: string, now: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const totp = new TOTP({ secret: Secret.fromBase32(base32), digits: 6, period: ADMIN_TOTP_PERIOD_S });
  const delta = totp.validate({ token: code, timestamp: now, window: SKEW });
  return delta === null ? undefined : Math.floor(now / 1000 / ADMIN_TOTP_PERIOD_S) + delta;
}

/** The code of a secret for a time step (the test helpers, which must pick a code not yet used). */
export function generateAdminCode(base32: string, step: number): string {
  return new TOTP({ secret: Secret.fromBase32(base32), digits: 6, period: ADMIN_TOTP_PERIOD_S }).generate({ timestamp: step * ADMIN_TOTP_PERIOD_S * 1000 });
}
