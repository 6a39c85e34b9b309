import { AsyncLocalStorage } from "node:async_hooks";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { toNodeListener, type App as H3App } from "h3";
import { isUnsafePort } from "get-port-please";
import type { Logger } from "../util/logger.js";
import { createRequestId } from "../util/random.js";
import { Slots } from "../util/slots.js";

/**
 * The one listener stack: `serve` and every HTTP test call `startHttpServer`, so a crash that only
 * this stack can trigger shows in the suite.
 *
 * It adds what a server on the internet needs around the h3 app: a request id on every answer and in
 * every log line about the request; a request whose handling throws anywhere (the handler, a stream
 * or socket listener, a timer it started) is logged with that id and answered 500 while an answer is
 * still possible, and the server keeps serving; graceful stopping for the shutdown.
 */
export interface HttpServer {
  server: Server;
  /** The port really bound (the one asked for, or the one picked for 0). */
  port: number;
  /**
   * Stops the server gracefully (security-bar R5, after readiness has been failed): serves what
   * already reached it, stops accepting, lets in-flight requests finish and then closes their
   * connections. After `deadlineMs` the remaining sockets are destroyed; resolves true then.
   */
  stop(deadlineMs: number): Promise<boolean>;
}

/** Why the server could not listen, in words for the operator. */
export class ListenError extends Error {
  override name = "ListenError";
}

interface RequestScope { id: string; method: string | undefined; url: string | undefined; res: ServerResponse }

const requestScope = new AsyncLocalStorage<RequestScope>();

/** The id of the request being handled in this async context (for log lines), if any. */
export function currentRequestId(): string | undefined {
  return requestScope.getStore()?.id;
}

/**
 * Serves the h3 app on exactly the port asked for (0 = any free one) with node:http itself: a port
 * that is taken or on the browsers' unsafe-port list is refused, never swapped for another (listhen,
 * used here before, cost every single-process server about 10 MB for conveniences it had switched
 * off: node-forge for self-signed certificates, a QR code renderer, a console logger).
 * `onFatal` hears an uncaught error that belongs to no request (the process is then in an unknown
 * state; `serve` shuts down with exit 1 so a supervisor restarts it).
 */
export async function startHttpServer(app: H3App, opts: { port: number; host: string; bodyLimit: number; logger: Logger; onFatal?: (err: unknown) => void; handle?: object }): Promise<HttpServer> {
  const { port, host, logger } = opts;
  const handle = toNodeListener(app);
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const scope: RequestScope = { id: createRequestId(), method: req.method, url: req.url, res };
    res.setHeader("x-request-id", scope.id);
    keepConnectionAfterRefusal(req, res, opts.bodyLimit);
    requestScope.run(scope, () => {
      Promise.resolve(handle(req, res)).catch((err) => failRequest(scope, err, logger));
    });
  };
  if (opts.handle) return serveOn(await listenOnHandle(listener, opts.handle, { host: opts.host, port: opts.port }), logger, opts.onFatal);
  const where = `port ${port} on ${host}`;
  if (port !== 0 && isUnsafePort(port)) throw new ListenError(`${where} cannot be used: it is on the list of ports browsers refuse to connect to; choose another with --port`);
  const server = createServer(listener);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen({ port, host }, () => { server.off("error", reject); resolve(); });
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === "EADDRINUSE") throw new ListenError(`${where} is already in use; stop the other process or choose another with --port`);
    if (e.code === "EACCES") throw new ListenError(`${where} needs privileges this process does not have; choose a port above 1023 with --port`);
    if (e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND" || e.code === "EAI_AGAIN") throw new ListenError(`cannot bind to ${host}: no such local address; check --host`);
    throw new ListenError(`cannot listen on ${where}: ${e.message}`);
  }
  const address = server.address();
  const actualHost = typeof address === "object" && address ? address.address : host;
  if (!sameHost(actualHost, host)) {
    await new Promise((resolve) => server.close(resolve));
    throw new ListenError(`cannot bind to ${host}; check --host`);
  }
  return serveOn(server, logger, opts.onFatal);
}

/**
 * A cluster worker's listen: on the socket its primary bound (http/listen-socket.ts), without
 * a port check of its own, which would listen and close first, opening and closing the shared port.
 */
function listenOnHandle(listener: (req: IncomingMessage, res: ServerResponse) => void, handle: object, where: { host: string; port: number }): Promise<Server> {
  const server = createServer(listener);
  return new Promise((resolve, reject) => {
    server.once("error", (err) => reject(new ListenError(`cannot listen on the cluster's socket: ${err.message}`)));
    server.listen(handle, () => {
      // When the shared socket cannot listen (another process took the port after the primary's
      // check), Node quietly listens on a port of its own instead: refuse that rather than serve
      // where nobody connects.
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      if (where.port === 0 || port === where.port) return resolve(server);
      server.close();
      reject(new ListenError(`port ${where.port} on ${where.host} is already in use; stop the other process or choose another with --port`));
    });
  });
}

function serveOn(server: Server, logger: Logger, onFatal: ((err: unknown) => void) | undefined): HttpServer {
  const address = server.address();
  const unguard = guardProcess(logger, onFatal);
  const graceful = makeGraceful(server);
  return {
    server,
    port: typeof address === "object" && address ? address.port : 0,
    stop: async (deadlineMs) => {
      try {
        return await graceful(deadlineMs);
      } finally {
        unguard();
      }
    },
  };
}

/**
 * A request answered before its body was read (a 429, 401, 403 or 415 refuses it first) keeps its
 * keep-alive connection: once the answer is out, Node reads and discards the rest of the body
 * (IncomingMessage._dump), and the client's next request on that socket is served. Without this,
 * a client behind a shared proxy saw random dropped connections instead of its 429. Only a body
 * that cannot be worth reading closes the connection: one declared over the limit (told
 * "Connection: close" before any answer, so the client does not reuse the socket) or one that
 * passes the limit while it is being discarded (an endless chunked upload).
 */
function keepConnectionAfterRefusal(req: IncomingMessage, res: ServerResponse, limit: number): void {
  const declared = req.headers["content-length"];
  // No body (most GETs): nothing could be left unread, so no listener per request.
  if ((declared === undefined || declared === "0") && req.headers["transfer-encoding"] === undefined) return;
  const tooLarge = declared !== undefined && !(Number(declared) <= limit);
  if (tooLarge) res.setHeader("connection", "close");
  // At "prefinish", before Node's own "finish" listener would dump the body unseen (its parser then
  // drops the bytes without counting them): reading it here, Node leaves it to us.
  res.once("prefinish", () => {
    if (req.complete || req.readableFlowing) return;
    if (tooLarge) return void res.once("finish", () => req.socket.destroySoon());
    let discarded = 0;
    req.on("data", (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > limit) req.socket.destroy();
    });
    req.resume();
  });
}

/** Logs a request's failure with its id; answers 500 if nothing was sent yet, else ends the socket. */
function failRequest(scope: RequestScope, err: unknown, logger: Logger): void {
  logger.error("request failed", { requestId: scope.id, method: scope.method, path: scope.url?.split("?")[0], err: err instanceof Error ? err : new Error(String(err)) });
  const res = scope.res;
  if (res.writableEnded || res.destroyed) return;
  if (!res.headersSent) {
    try {
      res.writeHead(500, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", connection: "close", "x-request-id": scope.id });
      res.end(JSON.stringify({ message: "Internal Error" }));
      return;
    } catch { /* fall through: the socket is unusable */ }
  }
  res.destroy();
}

// One pair of process listeners however many servers run (tests start many in one process).
let guards = 0;
const fatalHandlers = new Set<(err: unknown) => void>();
let guardLogger: Logger | undefined;

function onUncaught(err: unknown): void {
  const scope = requestScope.getStore();
  if (scope && guardLogger) return failRequest(scope, err, guardLogger);
  guardLogger?.error("uncaught error outside any request", { err: err instanceof Error ? err : new Error(String(err)) });
  for (const h of fatalHandlers) h(err);
}

/**
 * Errors thrown asynchronously on a request's behalf (an emitter or stream listener, a timer) escape
 * every try/catch and would end the process. They still run in the request's async context, so they
 * are attributed to it, logged and answered 500 where possible, and the server keeps serving.
 */
function guardProcess(logger: Logger, onFatal?: (err: unknown) => void): () => void {
  guardLogger = logger;
  if (onFatal) fatalHandlers.add(onFatal);
  if (guards++ === 0) {
    process.on("uncaughtException", onUncaught);
    process.on("unhandledRejection", onUncaught);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (onFatal) fatalHandlers.delete(onFatal);
    if (--guards === 0) {
      process.off("uncaughtException", onUncaught);
      process.off("unhandledRejection", onUncaught);
    }
  };
}

function sameHost(actual: string, asked: string): boolean {
  if (asked === "localhost") return actual === "127.0.0.1" || actual === "::1";
  return actual === asked || (asked === "0.0.0.0" && actual === "::") || (asked === "::" && actual === "0.0.0.0");
}

/** Graceful stopping: knows the in-flight responses, so a shutdown can end them cleanly. */
function makeGraceful(server: Server): (deadlineMs: number) => Promise<boolean> {
  // The responses in flight (util/slots.ts: not a Set, which kept finished requests from being collected young).
  const inFlight = new Slots<ServerResponse>();
  let stopping = false;
  // Registered after the app's listener, but before any handler can write a header (they are async).
  server.on("request", (_req, res: ServerResponse) => {
    const slot = inFlight.add(res);
    res.on("close", () => inFlight.take(slot));
    if (stopping) res.setHeader("connection", "close");
  });
  return async (deadlineMs) => {
    stopping = true;
    // Responses still being computed end their connection: a keep-alive client must not send its
    // next request down a socket that is about to close.
    for (const [, res] of inFlight.entries()) if (!res.headersSent) res.setHeader("connection", "close");
    // server.close() destroys every connection without a parsed request (Node >= 19). A client
    // whose request was already on the wire (in the listen backlog, or unread in its socket) would
    // get a reset for a request we could have served. A few turns of the event loop accept the
    // backlog and read those sockets first (accept in one turn, read in the next); requests
    // arriving after that are refused.
    for (let i = 0; i < 3; i++) await new Promise<void>((r) => setImmediate(r));
    let cut = false;
    const timer = setTimeout(() => { cut = true; server.closeAllConnections(); }, deadlineMs);
    timer.unref();
    await new Promise<void>((done) => server.close(() => done()));
    clearTimeout(timer);
    return cut;
  };
}
