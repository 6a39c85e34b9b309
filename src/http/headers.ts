import type { H3Event } from "h3";

/**
 * One request header, exactly as h3's getRequestHeader returns it (repeated headers joined with
 * ", "), without h3 v1's copy of every header on each call: the hot paths read several per request.
 */
export function readHeader(event: H3Event, name: string): string | undefined {
  const v = event.node.req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.filter(Boolean).join(", ") : v;
}
