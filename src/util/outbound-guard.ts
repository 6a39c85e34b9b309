import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * The guard for requests the server makes to URLs someone else chose (webhook endpoints now, OAuth
 * client metadata documents later): only public unicast addresses, unless a network is allowed
 * explicitly. Loopback, private (RFC 1918, unique-local), link-local (the 169.254.169.254 and
 * fd00:ec2::254 metadata services), carrier-grade NAT (100.100.100.200), multicast, reserved and
 * every IPv6 form that embeds an IPv4 address (mapped, 6to4, Teredo, NAT64) are refused. The check
 * runs on the address actually connected to (the DNS answer inside the socket's lookup), so a name
 * that resolves, or later re-resolves, to an internal address is refused too.
 */
export interface OutboundPolicy {
  /** Non-public networks allowed anyway, as [network, prefix length]. */
  readonly allowed: ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
}

/** What `isAllowedAddress` refused: connects fail with it, and logs say only "blocked". */
export class BlockedTargetError extends Error {
  override name = "BlockedTargetError";
  readonly code = "EBLOCKED";
  constructor(readonly host: string) {
    super(`${host} is not a public address`);
  }
}

const LOOPBACK = ["127.0.0.0/8", "::1/128"];

/** A policy from CIDR texts (already validated, e.g. by the config); `allowLoopback` adds 127.0.0.0/8 and ::1. */
export function createOutboundPolicy(o: { allowNetworks: readonly string[]; allowLoopback: boolean }): OutboundPolicy {
  const texts = [...o.allowNetworks, ...(o.allowLoopback ? LOOPBACK : [])];
  return { allowed: texts.map((c) => (c.includes("/") ? ipaddr.parseCIDR(c) : hostRange(c))) };
}

function hostRange(address: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  const ip = ipaddr.process(address);
  return [ip, ip.kind() === "ipv4" ? 32 : 128];
}

/** Whether a connection to this IP address is allowed: public unicast, or inside an allowed network. */
export function isAllowedAddress(policy: OutboundPolicy, address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is.
  const ip = ipaddr.process(address);
  if (ip.range() === "unicast") return true;
  return policy.allowed.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits));
}

/** The IP address a URL's host names literally (any notation the URL parser accepts), else undefined. */
function literalAddress(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return ipaddr.isValid(host) ? host : undefined;
}

/**
 * Registration-time check of a URL: its literal address, or every address its name resolves to
 * now, must be allowed. Throws BlockedTargetError. A name that does not resolve (yet) passes: the
 * connect-time lookup decides then.
 */
export async function assertAllowedTarget(policy: OutboundPolicy, url: URL, resolve: typeof dnsLookup = dnsLookup): Promise<void> {
  const literal = literalAddress(url);
  if (literal !== undefined) {
    if (!isAllowedAddress(policy, literal)) throw new BlockedTargetError(url.hostname);
    return;
  }
  const addresses = await new Promise<LookupAddress[]>((ok) => resolve(url.hostname, { all: true }, (err, list) => ok(err ? [] : list)));
  if (addresses.some((a) => !isAllowedAddress(policy, a.address))) throw new BlockedTargetError(url.hostname);
}

/** Connect-time check of a literal address (sockets do not call `lookup` for those). Throws BlockedTargetError. */
export function assertAllowedLiteral(policy: OutboundPolicy, url: URL): void {
  const literal = literalAddress(url);
  if (literal !== undefined && !isAllowedAddress(policy, literal)) throw new BlockedTargetError(url.hostname);
}

/**
 * The `lookup` for an HTTP request or socket: resolves as usual, then refuses the connection with
 * BlockedTargetError when any answer is not allowed (a mixed answer is how DNS rebinding starts).
 */
export function createGuardedLookup(policy: OutboundPolicy, resolve: typeof dnsLookup = dnsLookup): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number }, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    resolve(hostname, { ...options, all: true }, (err, list) => {
      if (err) return callback(err, "");
      if (list.length === 0 || list.some((a) => !isAllowedAddress(policy, a.address))) return callback(new BlockedTargetError(hostname), "");
      if (options.all) return callback(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  }) as unknown as LookupFunction;
}
