import type { Server, ServerResponse } from "node:http";

/** An HTTP server that knows its in-flight responses, so a shutdown can end them cleanly. */
export interface GracefulServer {
  server: Server;
  /**
   * Stops the server gracefully (security-bar R5, after readiness has been failed): serves what
   * already reached it, stops accepting, lets in-flight requests finish and then closes their
   * connections. After `deadlineMs` the remaining sockets are destroyed; resolves true then.
   */
  stop(deadlineMs: number): Promise<boolean>;
}

/** Adds graceful stopping to a server (listhen's, in `serve`; a plain node:http one in tests). */
export function makeGraceful(server: Server): GracefulServer {
  const inFlight = new Set<ServerResponse>();
  let stopping = false;
  // Registered after the app's listener, but before any handler can write a header (they are async).
  server.on("request", (_req, res) => {
    inFlight.add(res);
    res.on("close", () => inFlight.delete(res));
    if (stopping) res.setHeader("connection", "close");
  });
  return {
    server,
    async stop(deadlineMs) {
      stopping = true;
      // Responses still being computed end their connection: a keep-alive client must not send its
      // next request down a socket that is about to close.
      for (const res of inFlight) if (!res.headersSent) res.setHeader("connection", "close");
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
    },
  };
}
