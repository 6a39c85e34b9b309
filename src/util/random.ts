import { createHash, randomBytes, randomUUID } from "node:crypto";

/** A new opaque secret token: 32 CSPRNG bytes (256 bits), base64url, no padding. */
export function createSecretToken(): string {
  return randomBytes(32).toString("base64url");
}

/** `n` CSPRNG bytes. */
export function createRandomBytes(n: number): Buffer {
  return randomBytes(n);
}

/** SHA-256 hex of a token: the only form in which secret tokens are stored. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A random UUID v4, used for user ids and session handles. */
export function createId(): string {
  return randomUUID();
}

const requestIdPrefix = randomBytes(4).toString("hex");
let requestCounter = 0;

/**
 * A request id for log lines and the x-request-id header: not a secret, only unique (a per-process
 * random prefix and a counter, so it costs nothing on the hot path).
 */
export function createRequestId(): string {
  return `${requestIdPrefix}-${(++requestCounter).toString(36)}`;
}
