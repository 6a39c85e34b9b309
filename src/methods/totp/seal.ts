import { decryptPrivateJwk, encryptPrivateJwk } from "../../core/signing-keys.js";

/**
 * A TOTP secret at rest: AES-256-GCM under the server secret, the same scheme as the signing keys,
 * with the device's owner and name as associated data so a ciphertext cannot move to another row.
 * Joining two people moves devices and seals them anew (merge.ts).
 */
const aad = (userId: string, name: string) => `totp:${userId}:${name}`;

/** Seals a Base32 secret for the device (`userId`, `name`). */
export function sealTotpSecret(base32: string, serverSecret: string | undefined, userId: string, name: string): string {
  return encryptPrivateJwk(base32, serverSecret, aad(userId, name));
}

/** Opens a device's secret; a clear error when the server secret is not the one it was sealed with. */
export function openTotpSecret(device: { secret_enc: string; user_id: string; name: string }, serverSecret: string | undefined): string {
  try {
    return decryptPrivateJwk(device.secret_enc, serverSecret, aad(device.user_id, device.name));
  } catch {
    throw new Error(`the TOTP secret of a device of user ${device.user_id} cannot be read with the configured server secret (AUTHSVC_SECRET): it was stored with another secret, or none`);
  }
}

/** Seals a device's secret anew when it moves to another person or name (two people joined). */
export function resealTotpSecret(serverSecret: string | undefined, sealed: string, was: { userId: string; name: string }, to: { userId: string; name: string }): string {
  const base32 = openTotpSecret({ secret_enc: sealed, user_id: was.userId, name: was.name }, serverSecret);
  return sealTotpSecret(base32, serverSecret, to.userId, to.name);
}
