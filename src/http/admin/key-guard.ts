import { createHash, timingSafeEqual } from "node:crypto";
import { getRequestHeader, type H3Event } from "h3";

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/**
 * The admin API's only credential: `Authorization: Bearer <AUTHSVC_ADMIN_API_KEY>`. Both sides are
 * hashed to 32 bytes first so timingSafeEqual compares equal lengths and neither the key's length
 * nor how much of a guess matched shows in the time taken. Returns why it refused, or null.
 */
export function createKeyGuard(key: string): (event: H3Event) => "missing" | "invalid" | null {
  const expected = digest(key);
  return (event) => {
    const header = getRequestHeader(event, "authorization");
    const m = typeof header === "string" ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header) : null;
    if (!m) return "missing";
    return timingSafeEqual(digest(m[1]), expected) ? null : "invalid";
  };
}
