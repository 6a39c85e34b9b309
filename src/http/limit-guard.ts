import { defineEventHandler, type EventHandler, type H3Event } from "h3";
import ipaddr from "ipaddr.js";
import type { Config } from "../config/types.js";
import { checkLimit, countFailure, enforceLimit, ipKey, type WindowBucket } from "../core/limits.js";
import type { HttpDeps } from "./deps.js";
import { readHeader } from "./headers.js";

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];
const trustCache = new WeakMap<Readonly<Config>, Range[]>();

/** The trusted-proxy ranges, parsed once per (frozen) config; config.ts has validated them. */
function trustedRanges(config: Readonly<Config>): Range[] {
  let ranges = trustCache.get(config);
  if (!ranges) {
    ranges = config.trustedProxies.map((c) => ipaddr.parseCIDR(c));
    trustCache.set(config, ranges);
  }
  return ranges;
}

function isTrusted(address: string, ranges: Range[]): boolean {
  if (!ranges.length || !ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  return ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits));
}

/**
 * The client's address: the socket's peer, unless that peer is a trusted proxy; then X-Forwarded-For
 * is read from the right (the entry the trusted hop appended) past every further trusted hop. Entries
 * left of the first untrusted one are the client's own words and are never believed, so a spoofed
 * header from an untrusted socket changes nothing.
 */
export function clientAddress(event: H3Event, config: Readonly<Config>): string {
  let current = event.node.req.socket.remoteAddress ?? "";
  const ranges = trustedRanges(config);
  if (!isTrusted(current, ranges)) return current;
  const hops = (readHeader(event, "x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  while (hops.length && isTrusted(current, ranges)) {
    const next = hops.pop()!;
    if (!ipaddr.isValid(next)) break; // a malformed hop: keep the last address we can vouch for
    current = next;
  }
  return current;
}

/** The rate-limit key of the client: its address (IPv6 by /64). */
export function clientKey(event: H3Event, config: Readonly<Config>): string {
  const address = clientAddress(event, config);
  return ipKey(address) ?? (address || "unknown");
}

// RESET_PASSWORD_INVALID_TOKEN_ERROR, EMAIL_VERIFICATION_INVALID_TOKEN_ERROR, RECOVER_ACCOUNT_TOKEN_INVALID_ERROR (account recovery).
const isInvalidToken = (r: unknown) => typeof (r as { status?: unknown })?.status === "string" && /_(INVALID_TOKEN|TOKEN_INVALID)_ERROR$/.test((r as { status: string }).status);

/**
 * Wraps a route's handler with its per-client-IP buckets (the route table names them). Every bucket
 * counts the request before the handler runs, except invalid-token-ip: it refuses a client whose
 * recent invalid tokens fill it and counts only submissions the handler answered INVALID_TOKEN.
 */
export function guardRoute(deps: HttpDeps, buckets: readonly WindowBucket[], handler: EventHandler): EventHandler {
  if (!buckets.length) return handler;
  const config = deps.ctx.config;
  const guessing = buckets.includes("invalid-token-ip");
  return defineEventHandler(async (event) => {
    if (!config.rateLimits) return handler(event);
    const key = clientKey(event, config);
    for (const bucket of buckets) {
      if (bucket === "invalid-token-ip") await checkLimit(deps.ctx, bucket, key);
      else await enforceLimit(deps.ctx, bucket, key);
    }
    const result = await handler(event);
    if (guessing && isInvalidToken(result)) await countFailure(deps.ctx, "invalid-token-ip", key);
    return result;
  });
}
