import { defineEventHandler, type H3Event } from "h3";
import type { HttpLayer } from "./dev-host-guard.js";
import type { Config } from "../config/types.js";
import type { Logger } from "../util/logger.js";

/**
 * Warns once (per process) when a request carries X-Forwarded-For or Forwarded while no
 * --trusted-proxies are set: authsvc is then most likely behind a proxy whose address every
 * visitor shares, so they all share one rate-limit budget and the logs show the proxy's address.
 * The headers are not believed either way (limit-guard.ts); this only tells the operator.
 */
export function createForwardedHeaderWarning(config: Readonly<Config>, logger: Logger): HttpLayer | undefined {
  if (config.trustedProxies.length > 0) return undefined;
  let warned = false;
  const headerName = (event: H3Event) => {
    const headers = event.node.req.headers;
    return headers["x-forwarded-for"] !== undefined ? "X-Forwarded-For" : headers.forwarded !== undefined ? "Forwarded" : undefined;
  };
  return {
    // Only the first request with such a header calls the handler; every other request passes on the match.
    match: (_path, event) => !warned && event !== undefined && headerName(event) !== undefined,
    handler: defineEventHandler((event) => {
      const name = headerName(event);
      if (warned || !name) return;
      warned = true;
      logger.warn(
        `a request came with ${name} but no --trusted-proxies are set: every client behind that proxy shares the proxy's address and one rate-limit budget. ` +
          "Set --trusted-proxies (AUTHSVC_TRUSTED_PROXIES) to the proxy's address range, e.g. 10.0.0.0/8 or 127.0.0.1/32; this is said once",
        { peer: event.node.req.socket.remoteAddress ?? "" },
      );
    }),
  };
}
