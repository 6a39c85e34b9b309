import { defineEventHandler, setResponseHeader, setResponseStatus, type EventHandler } from "h3";
import { readHeader } from "./headers.js";
import type { Config } from "../config/types.js";

const METHODS = "GET, POST, PUT, DELETE, OPTIONS";

/**
 * CORS (PROTOCOL.md §10): only exact allowlisted origins get Access-Control-Allow-Origin (never `*`
 * with credentials; `null`, suffix and prefix look-alikes get nothing); Vary: Origin always.
 * Preflights are answered here with 204; a foreign origin's preflight gets no allow headers, so the
 * browser blocks the real request.
 */
export function corsHandler(config: Readonly<Config>, roomHeaders: readonly string[] = []): EventHandler {
  const allowed = new Set(config.corsOrigins);
  const allowHeaders = ["content-type", "rid", "fdi-version", "anti-csrf", "authorization", "st-auth-mode", `${config.brandPrefix}-auth-mode`, ...roomHeaders].join(", ");
  return defineEventHandler((event) => {
    setResponseHeader(event, "vary", "Origin");
    const origin = readHeader(event, "origin");
    const ok = typeof origin === "string" && allowed.has(origin);
    if (ok) {
      setResponseHeader(event, "access-control-allow-origin", origin);
      setResponseHeader(event, "access-control-allow-credentials", "true");
    }
    if (event.method === "OPTIONS" && readHeader(event, "access-control-request-method") !== undefined) {
      if (ok) {
        setResponseHeader(event, "access-control-allow-methods", METHODS);
        setResponseHeader(event, "access-control-allow-headers", allowHeaders);
        setResponseHeader(event, "access-control-max-age", 600);
      }
      setResponseStatus(event, 204);
      event.node.res.end();
    }
  });
}
