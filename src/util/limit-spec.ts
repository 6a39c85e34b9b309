import ipaddr from "ipaddr.js";
import { formatDuration, parseDuration } from "./duration.js";

/** A budget: at most `limit` per `windowMs`. */
export interface LimitSpec { limit: number; windowMs: number }

/**
 * Reads a budget setting ("20/1h", "100/15m", "off"); undefined = switched off. Throws a message
 * string when malformed (config.ts names the setting around it).
 */
export function parseLimitSpec(text: string): LimitSpec | undefined {
  if (/^\s*off\s*$/i.test(text)) return undefined;
  const m = /^\s*(\d+)\s*\/\s*(\S+)\s*$/.exec(text);
  const windowMs = m ? parseDuration(m[2]) : undefined;
  if (!m || windowMs === undefined) throw "expected a budget such as 20/1h (at most 20 per hour) or off";
  const limit = Number(m[1]);
  if (limit < 1 || limit > 1_000_000_000) throw "expected a count from 1 to 1000000000 before the /";
  if (windowMs < 1000 || windowMs > 30 * 86_400_000) throw "expected a window from 1s to 30d after the /";
  return { limit, windowMs };
}

/** A budget in its canonical text ("50 / 30m" → "50/30m", "OFF" → "off"). */
export function normaliseLimitSpec(text: string): string {
  const spec = parseLimitSpec(text);
  return spec ? `${spec.limit}/${formatDuration(spec.windowMs)}` : "off";
}

/**
 * An address or CIDR in canonical form ("127.0.0.1" → "127.0.0.1/32"; IPv4-mapped IPv6 ranges as
 * IPv4), parsed by ipaddr.js. Throws a message string for anything else.
 */
export function normaliseCidr(text: string): string {
  try {
    const [addr, bits] = text.includes("/") ? ipaddr.parseCIDR(text) : [ipaddr.parse(text), undefined];
    const mapped = addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress();
    const plain = mapped ? (addr as ipaddr.IPv6).toIPv4Address() : addr;
    const width = plain.kind() === "ipv4" ? 32 : 128;
    return `${plain.toString()}/${bits === undefined ? width : bits - (mapped ? 96 : 0)}`;
  } catch {
    throw `"${text}" is not an IP address or CIDR such as 10.0.0.0/8`;
  }
}
