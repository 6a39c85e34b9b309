import { STATUS_CODES } from "node:http";
import { H3Error, type H3Event, setResponseHeader, setResponseStatus } from "h3";
import { AuthError, type ErrorCode } from "../core/errors.js";
import { isBusyError } from "../store/database.js";
import { classifyOutage, CommitOutcomeUnknownError, type OutageKind } from "../store/outage.js";
import { HttpInputError } from "./body.js";
import { exposeHeaders } from "./session-transport.js";
import type { Logger } from "../util/logger.js";
import { currentRequestId } from "./server.js";

const statusOf: Record<ErrorCode, number> = {
  BAD_INPUT: 400,
  UNAUTHORISED: 401,
  TRY_REFRESH_TOKEN: 401,
  TOKEN_THEFT_DETECTED: 401,
  INVALID_CLAIM: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  PROVIDER_ERROR: 502,
  UNAVAILABLE: 503,
  SIGN_IN_REFUSED: 200,
};

/**
 * What a client is told during a database outage (store/outage.ts kinds): always 503 + Retry-After,
 * so a client or load balancer can tell "retry in a moment" from a bug. A full or read-only disk
 * is not over in a second: those ask for a longer wait.
 */
const outageAnswers: Record<OutageKind | "commit-unknown", { reason: string; message: string; retryAfter: number }> = {
  unreachable: { reason: "database_unreachable", message: "The database is unreachable; please retry in a moment.", retryAfter: 1 },
  io: { reason: "database_io_error", message: "The database had an I/O error; please retry in a moment.", retryAfter: 1 },
  "read-only": { reason: "database_read_only", message: "The database is read-only for now: changes cannot be saved. Please retry later.", retryAfter: 5 },
  full: { reason: "database_full", message: "The database's disk is full: changes cannot be saved. Please retry later.", retryAfter: 5 },
  "commit-unknown": { reason: "database_unreachable", message: "The connection to the database was lost while saving: the change may or may not have been made. Check before retrying.", retryAfter: 1 },
};

/** The JSON body and status for any error thrown while handling a request (one place for all). */
export function errorResponse(thrown: unknown, logger: Logger, event?: H3Event): { status: number; body: Record<string, unknown>; retryAfter?: number } {
  // h3 wraps what a handler throws in an H3Error; the original is its cause.
  const err = thrown instanceof H3Error && thrown.cause instanceof Error ? thrown.cause : thrown;
  if (err instanceof AuthError) {
    // The SDKs' generic refusal of a sign-in, in the method's own status (set by createSessionResponse).
    if (err.code === "SIGN_IN_REFUSED") return { status: 200, body: { status: err.details.status ?? "SIGN_IN_NOT_ALLOWED", reason: err.message } };
    const body: Record<string, unknown> = { message: err.message };
    if (err.code === "INVALID_CLAIM") body.claimValidationErrors = err.details.claimValidationErrors ?? [];
    if (err.details.reason !== undefined) body.reason = err.details.reason;
    // A refusal clients branch on by a status string (a support session's, SUPPORT_SESSION_REFUSED).
    if (err.details.status !== undefined) body.status = err.details.status;
    return { status: statusOf[err.code], body, retryAfter: err.details.retryAfterSeconds };
  }
  if (err instanceof HttpInputError) return { status: err.status, body: { message: err.message } };
  const outage = classifyOutage(err);
  if (outage) {
    // Logged once per outage by the outage monitor (app.ts onError), not here per request.
    const o = outageAnswers[err instanceof CommitOutcomeUnknownError ? "commit-unknown" : outage];
    return { status: 503, body: { message: o.message, reason: o.reason }, retryAfter: o.retryAfter };
  }
  if (isBusyError(err)) {
    logger.warn("database busy", { requestId: currentRequestId(), path: event?.path });
    return { status: 503, body: { message: "The database is busy; please retry." }, retryAfter: 1 };
  }
  if (err instanceof H3Error && err.statusCode < 500) {
    const messages: Record<number, string> = { 404: "Not Found", 405: "Method Not Allowed", 413: "Request body too large", 415: "Unsupported Media Type" };
    return { status: err.statusCode, body: { message: err.statusMessage || messages[err.statusCode] || err.message } };
  }
  const cause = err instanceof H3Error && err.cause ? err.cause : err;
  logger.error("internal error", { requestId: currentRequestId(), method: event?.method, path: event?.path, err: cause instanceof Error ? cause : new Error(String(cause)) });
  return { status: 500, body: { message: "Internal Error" } };
}

/** Writes an error response. */
export function sendError(event: H3Event, err: unknown, logger: Logger): Record<string, unknown> {
  const r = errorResponse(err, logger, event);
  // The standard reason phrase: h3 would otherwise put its own message in the status line.
  setResponseStatus(event, r.status, STATUS_CODES[r.status]);
  if (r.retryAfter !== undefined) {
    setResponseHeader(event, "retry-after", r.retryAfter);
    // Not a CORS-safelisted header: a frontend on another origin could not read it otherwise.
    exposeHeaders(event, ["retry-after"]);
  }
  return r.body;
}
