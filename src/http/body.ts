import type { H3Event } from "h3";


/** HTTP-level input errors (413, 415) carry their own status; everything else here is a 400. */
export class HttpInputError extends Error {
  constructor(readonly status: 400 | 411 | 413 | 415, message: string) {
    super(message);
  }
}

const INVALID_JSON = "API input error: Please make sure to pass a valid JSON input in the request body";
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Reads a JSON object body under a byte limit (PROTOCOL.md §0):
 * - the limit is enforced while streaming, so a chunked body with no Content-Length is cut off too (413);
 * - an empty body is `{}`; a non-empty one must be application/json (415);
 * - invalid UTF-8, invalid JSON, or a top level that is not an object → 400;
 * - `__proto__` keys and `constructor.prototype` at any depth → 400 (prototype pollution).
 */
export function readJsonBody(event: H3Event, limit: number): Promise<Record<string, unknown>> {
  // Read once per request: a route guard that needs the body (an address's budget) and the handler
  // after it get the same object (or the same refusal); a stream cannot be read twice.
  let read = bodies.get(event);
  if (!read) {
    read = readJsonBodyOnce(event, limit);
    bodies.set(event, read);
  }
  return read;
}

const bodies = new WeakMap<H3Event, Promise<Record<string, unknown>>>();

async function readJsonBodyOnce(event: H3Event, limit: number): Promise<Record<string, unknown>> {
  const req = event.node.req;
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > limit) {
    closeAfterResponse(event);
    throw new HttpInputError(413, `Request body too large (limit ${limit} bytes)`);
  }
  const { chunks, size } = await readUpTo(event, limit);
  if (size === 0) return {};
  const type = String(req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new HttpInputError(415, "Content-Type must be application/json");
  }
  let text: string;
  try {
    text = decoder.decode(Buffer.concat(chunks, size));
  } catch {
    throw new HttpInputError(400, "Request body is not valid UTF-8");
  }
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text, rejectPrototypeKeys);
  } catch (err) {
    if (err instanceof HttpInputError) throw err;
    throw new HttpInputError(400, INVALID_JSON);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new HttpInputError(400, INVALID_JSON);
  return value as Record<string, unknown>;
}

/**
 * Reads an HTML form's body (application/x-www-form-urlencoded) under the same byte limit as JSON
 * bodies (413 while streaming, 415 for another type, 400 for invalid UTF-8): the admin dashboard's
 * forms post this, with no script to turn them into JSON.
 */
export async function readFormBody(event: H3Event, limit: number): Promise<URLSearchParams> {
  const declared = event.node.req.headers["content-length"];
  if (declared !== undefined && Number(declared) > limit) {
    closeAfterResponse(event);
    throw new HttpInputError(413, `Request body too large (limit ${limit} bytes)`);
  }
  const { chunks, size } = await readUpTo(event, limit);
  if (size === 0) return new URLSearchParams();
  const type = String(event.node.req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") throw new HttpInputError(415, "Content-Type must be application/x-www-form-urlencoded");
  try {
    return new URLSearchParams(decoder.decode(Buffer.concat(chunks, size)));
  } catch {
    throw new HttpInputError(400, "Request body is not valid UTF-8");
  }
}

/**
 * Collects the body, stopping at `limit`. Not `for await (… of req)`: leaving that loop early (the
 * 413) destroys the request stream, and the socket with it, while the response is still being
 * written; a 'finish' listener that reads `req.socket` (listhen's http-shutdown did, when serve ran
 * through listhen) then finds it null, and the uncaught TypeError ended the process. Here the stream is never destroyed: past the limit we stop
 * collecting, answer 413 and let the connection close after the response.
 */
function readUpTo(event: H3Event, limit: number): Promise<{ chunks: Buffer[]; size: number }> {
  const req = event.node.req;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        closeAfterResponse(event);
        reject(new HttpInputError(413, `Request body too large (limit ${limit} bytes)`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => { cleanup(); resolve({ chunks, size }); };
    const onError = (err: Error) => { cleanup(); reject(new HttpInputError(400, `Request body could not be read: ${err.message}`)); };
    // A client that goes away mid-body: 'close' without 'end'. Nothing can be answered, but the
    // handler must not wait forever nor act on half a body.
    const onClose = () => { cleanup(); reject(new HttpInputError(400, "Request body was cut off by the client")); };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

/**
 * After a 413 the rest of the body is never read: the connection is closed once the error is sent
 * (an endless chunked upload cannot keep the socket busy, and a keep-alive client cannot reuse a
 * socket whose request stream is half read, which would hang its next request).
 */
function closeAfterResponse(event: H3Event): void {
  event.node.res.setHeader("connection", "close");
  event.node.req.resume();
}

function rejectPrototypeKeys(this: unknown, key: string, value: unknown): unknown {
  if (key === "__proto__" || (key === "constructor" && value && typeof value === "object" && "prototype" in value)) {
    throw new HttpInputError(400, "Request body contains a forbidden key (__proto__ or constructor.prototype)");
  }
  return value;
}


