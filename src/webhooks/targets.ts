import type { Config } from "../config/types.js";
import { createOutboundPolicy, type OutboundPolicy } from "../util/outbound-guard.js";

const cache = new WeakMap<Readonly<Config>, OutboundPolicy>();

/**
 * Where webhook endpoints may point (util/outbound-guard.ts): public addresses, plus the networks of
 * --webhook-allow-networks, plus loopback in development mode (the docs' example receiver runs on
 * the same machine). Computed once per configuration (it is frozen).
 */
export function webhookTargetPolicy(config: Readonly<Config>): OutboundPolicy {
  let policy = cache.get(config);
  if (!policy) {
    policy = createOutboundPolicy({ allowNetworks: config.webhookAllowNetworks, allowLoopback: config.mode === "development" });
    cache.set(config, policy);
  }
  return policy;
}

/** The sentence a refused registration gets (the API's 400 and the CLI's error). */
export const BLOCKED_TARGET_MESSAGE = "url points at a loopback, private, link-local or metadata address; webhooks go to public addresses unless --webhook-allow-networks includes the network";
