/**
 * The catalogue of domain errors. Core functions throw AuthError with a code; http/errors.ts maps
 * each code to a status and body in one place. Anything else thrown is an internal error: logged
 * with its detail, answered as a generic 500.
 */
export type ErrorCode =
  | "BAD_INPUT" // 400 {"message"}
  | "UNAUTHORISED" // 401 unauthorised
  | "TRY_REFRESH_TOKEN" // 401 try refresh token
  | "TOKEN_THEFT_DETECTED" // 401 token theft detected
  | "INVALID_CLAIM" // 403 invalid claim
  | "FORBIDDEN" // 403 {"message"}: refused whoever asks (a cross-origin state change)
  | "NOT_FOUND" // 404
  | "CONFLICT" // 409
  | "RATE_LIMITED" // 429 + Retry-After
  | "PROVIDER_ERROR" // 502: an outside provider the server called failed (the message names it)
  | "UNAVAILABLE" // 503 + Retry-After: database locked, overloaded, away, read-only or full
  | "SIGN_IN_REFUSED"; // 200 {"status","reason"}: a sign-in that proved itself, refused (a person gate: a ban), as the method's generic refusal

export class AuthError extends Error {
  override name = "AuthError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    // `cause` stays in details, not Error.cause: h3 would answer with an Error's cause in its place.
    // `reason`: a stable word beside the message for clients that branch on it (e.g. captcha_required).
    readonly details: { clearTokens?: boolean; retryAfterSeconds?: number; claimValidationErrors?: unknown[]; cause?: unknown; reason?: string; status?: string } = {},
  ) {
    super(message);
  }
}

export const badInput = (message: string) => new AuthError("BAD_INPUT", message);
