import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { hashToken } from "../../util/random.js";

/**
 * The secrets of a passwordless flow, in SuperTokens' formats (recipes notes §2.2), so the SDKs'
 * stored login attempts and links work unchanged:
 * - deviceId: standard base64 of 32 random bytes; only the browser keeps it.
 * - preAuthSessionId: base64url (unpadded) of SHA-256(deviceId bytes): public, names the flow.
 * - userInputCode: 6 random decimal digits.
 * - linkCode: base64url of HMAC-SHA256(deviceId bytes ‖ salt, userInputCode). The salt never leaves
 *   the server, so someone holding a deviceId cannot turn code guesses into link codes offline, and
 *   someone holding a link cannot learn the code.
 * Only SHA-256(linkCode) is stored: a typed code is checked by recomputing its link code.
 */
export interface NewDevice { deviceId: string; preAuthSessionId: string; salt: string }

export function createDevice(): NewDevice {
  const deviceId = randomBytes(32).toString("base64");
  return { deviceId, preAuthSessionId: preAuthSessionIdOf(deviceId), salt: randomBytes(32).toString("base64") };
}

export function preAuthSessionIdOf(deviceId: string): string {
  return createHash("sha256").update(Buffer.from(deviceId, "base64")).digest("base64url");
}

/** Whether a deviceId belongs to a preAuthSessionId (constant time). */
export function deviceMatches(deviceId: string, preAuthSessionId: string): boolean {
  const a = Buffer.from(preAuthSessionIdOf(deviceId));
  const b = Buffer.from(preAuthSessionId);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Six decimal digits from the CSPRNG. */
export function createUserInputCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

export function linkCodeOf(deviceId: string, salt: string, userInputCode: string): string {
  const key = Buffer.concat([Buffer.from(deviceId, "base64"), Buffer.from(salt, "base64")]);
  return createHmac("sha256", key).update(userInputCode, "utf8").digest("base64url");
}

/** The stored form of a link code. */
export const hashLinkCode = hashToken;
