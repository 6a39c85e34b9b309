import { createError, type H3Event } from "h3";
import type { Config } from "../../config/types.js";
import { isKnownHost } from "../dev-host-guard.js";

const LOOPBACK_PEER = /^(127(\.\d{1,3}){3}|::1|::ffff:127(\.\d{1,3}){3})$/i;

/**
 * The development pages show live tokens, so they answer only a browser on this machine: the TCP
 * peer must be loopback (a development server bound to 0.0.0.0 still keeps them local), and the
 * Host header must name loopback or the public URL's host, which defeats DNS rebinding (a web page
 * whose own name resolves to 127.0.0.1 would otherwise read the inbox with the victim's browser).
 */
export function assertLocalClient(event: H3Event, config: Readonly<Config>): void {
  const peer = event.node.req.socket.remoteAddress ?? "";
  if (!LOOPBACK_PEER.test(peer) || !isKnownHost(event, config)) {
    throw createError({ statusCode: 403, message: "The development pages answer only browsers on this machine (loopback)." });
  }
}
