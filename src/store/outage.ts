/**
 * Which database errors are outages (the database is away, read-only or out of space: retry later)
 * rather than bugs. One place reads the drivers' error codes; http/errors.ts maps the kinds to 503 +
 * Retry-After, and the outage monitor (ops/outage-monitor.ts) logs each outage once.
 */
export type OutageKind = "unreachable" | "read-only" | "full" | "io";

// Socket-level codes from node:net / pg's connection: the server is gone or never answered.
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "ECONNABORTED"]);

// pg raises these without a code: a connection that ended under a query, or a client used after it.
const CONNECTION_MESSAGES = /^(Connection terminated|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|Connection terminated due to connection timeout|terminating connection due to)/;

/**
 * The kind of outage an error means, or undefined when it is not one. PostgreSQL: socket errors,
 * class 08 (connection exception), 57P01-57P03 (server shutting down, crashed, starting up), 25006
 * (read-only transaction: a standby), 53100 (disk full), 58030 (I/O error). SQLite: SQLITE_FULL,
 * SQLITE_READONLY*, SQLITE_IOERR*, SQLITE_CANTOPEN* (with any extended code).
 */
export function classifyOutage(err: unknown, depth = 0): OutageKind | undefined {
  if (err instanceof CommitOutcomeUnknownError) return "unreachable";
  const e = err as { code?: unknown; message?: unknown; errors?: unknown } | null;
  if (!e || typeof e !== "object") return undefined;
  const code = typeof e.code === "string" ? e.code : "";
  if (SOCKET_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code)) return "unreachable";
  if (code === "25006") return "read-only";
  if (code === "53100") return "full";
  if (code === "58030") return "io";
  // File-system codes, from the SQLite WAL's fdatasync (store/wal-sync.ts).
  if (code === "ENOSPC" || code === "EDQUOT") return "full";
  if (code === "EROFS") return "read-only";
  if (code === "EIO") return "io";
  if (/^SQLITE_FULL(_|$)/.test(code)) return "full";
  if (/^SQLITE_READONLY(_|$)/.test(code)) return "read-only";
  if (/^SQLITE_IOERR(_|$)/.test(code)) return "io";
  if (/^SQLITE_CANTOPEN(_|$)/.test(code)) return "unreachable";
  if (code === "" && typeof e.message === "string" && CONNECTION_MESSAGES.test(e.message)) return "unreachable";
  // Node's happy-eyeballs connect (localhost = ::1 and 127.0.0.1) fails with an AggregateError.
  if (Array.isArray(e.errors) && e.errors.length) return classifyOutage(e.errors[0], depth + 1);
  // An error raised because of another (a domain error about an interrupted write, which keeps it
  // in details.cause) is that outage.
  const cause = (e as { cause?: unknown }).cause ?? (e as { details?: { cause?: unknown } }).details?.cause;
  return cause !== undefined && depth < 3 ? classifyOutage(cause, depth + 1) : undefined;
}

/**
 * The connection was lost after the transaction's work was done, while COMMIT was on its way: the
 * server may or may not have committed, and this process cannot know which. Callers must not
 * answer "nothing happened" (a retry of a sign-up that did commit would meet "email exists").
 */
export class CommitOutcomeUnknownError extends Error {
  override name = "CommitOutcomeUnknownError";
  constructor(cause: unknown) {
    super(`the connection was lost while committing; the transaction may or may not have been applied (${(cause as Error)?.message ?? String(cause)})`, { cause });
  }
}

/**
 * Runs a transaction and turns a connection loss after its body finished (during COMMIT, or the
 * ROLLBACK Kysely tries after a failed COMMIT) into CommitOutcomeUnknownError. A failure inside the
 * body is left as it is: nothing was committed then. SQLite never loses its connection, and its
 * failed COMMITs (disk full, I/O) roll back, so for it this only passes errors through.
 */
export async function runTransaction<X, T>(execute: (body: (tx: X) => Promise<T>) => Promise<T>, body: (tx: X) => Promise<T>): Promise<T> {
  let bodyDone = false;
  try {
    return await execute(async (tx) => {
      const r = await body(tx);
      bodyDone = true;
      return r;
    });
  } catch (err) {
    if (bodyDone && classifyOutage(err) === "unreachable") throw new CommitOutcomeUnknownError(err);
    throw err;
  }
}
