import { defineEventHandler, setResponseHeaders, type EventHandler, type H3Event } from "h3";
import type { IncomingMessage } from "node:http";
import type { OidcProvider } from "oidc-provider";
import { enforceLimit } from "../core/limits.js";
import type { HttpDeps } from "../http/deps.js";
import { clientKey } from "../http/limit-guard.js";
import { abortInteraction, confirmInteraction, showInteraction } from "./interaction.js";
import { requestScope } from "./client-documents.js";
import { createProviderHolder, OAUTH_PREFIX, routes } from "./provider.js";

/** Every path a client may try for the metadata of the issuer (the bare public URL): RFC 8414 and OpenID Discovery. */
export const DISCOVERY_PATHS = ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"];
const INTERACTION = new RegExp(`^${OAUTH_PREFIX}/interaction/([A-Za-z0-9_-]{1,64})(/confirm|/abort)?$`);

/**
 * The provider in the same server: /oauth/* and the discovery documents go to oidc-provider (its
 * Koa app on the raw request), the interaction pages to interaction.ts; everything else passes on.
 * Mounted before authsvc's CORS: the provider answers CORS for its own endpoints. Every request but
 * the public documents (discovery, JWKS) counts against the oauth-ip bucket; registration also
 * against oauth-registration-ip; a client metadata document fetched for the request against
 * oauth-client-document-ip (client-documents.ts reads the request's client IP from requestScope).
 */
export function createOauthMount(deps: HttpDeps): EventHandler {
  const { ctx } = deps;
  const handler = createHandler(deps);
  return defineEventHandler((event) => requestScope.run({ key: clientKey(event, ctx.config), res: event.node.res, path: event.path.split("?")[0] }, () => handler(event)));
}

/**
 * The provider builds the URLs it publishes and redirects to (metadata, discovery, the JWKS location,
 * the resume after an interaction, a registration's client URI) from the request it is given. They
 * must come from --public-url alone, never from what a client sent (Host, X-Forwarded-*): one
 * cached answer naming another host would send everyone's sign-ins and key lookups there, and
 * behind a TLS proxy an http:// endpoint is refused by MCP clients. So the request the provider
 * sees names the public URL's host and scheme (the provider trusts these headers: provider.ts),
 * whatever the client or a proxy wrote; the client's address was read before (clientKey).
 */
function pinToPublicUrl(publicUrl: string): (req: IncomingMessage) => void {
  const u = new URL(publicUrl);
  const host = u.host, proto = u.protocol.slice(0, -1);
  return (req) => {
    req.headers.host = host;
    req.headers["x-forwarded-host"] = host;
    req.headers["x-forwarded-proto"] = proto;
    for (const h of ["x-forwarded-for", "x-forwarded-port", "x-forwarded-prefix", "forwarded"]) delete req.headers[h];
  };
}

function createHandler(deps: HttpDeps): (event: H3Event) => Promise<unknown> {
  const { ctx } = deps;
  const holder = createProviderHolder(ctx);
  const pin = pinToPublicUrl(ctx.config.publicUrl);
  let callback: { provider: OidcProvider; run: (req: unknown, res: unknown) => void } | undefined;
  return async (event) => {
    if (!ctx.config.oauthProvider) return;
    const path = event.path.split("?")[0];
    const discovery = DISCOVERY_PATHS.includes(path);
    if (!discovery && !path.startsWith(`${OAUTH_PREFIX}/`)) return;
    if (!discovery && path !== routes.jwks && ctx.config.rateLimits) {
      const key = requestScope.getStore()!.key;
      await enforceLimit(ctx, "oauth-ip", key);
      if (path === routes.registration && event.method === "POST") await enforceLimit(ctx, "oauth-registration-ip", key);
    }
    // authsvc's own JWKS: the current key and the retired ones whose tokens may still be valid
    // (the provider signs with the current key, and knows no other).
    if (path === routes.jwks && (event.method === "GET" || event.method === "HEAD")) {
      setResponseHeaders(event, { "access-control-allow-origin": "*", "cache-control": "max-age=60, must-revalidate", "content-type": "application/jwk-set+json" });
      return ctx.keys.jwks();
    }
    pin(event.node.req);
    const provider = await holder.get();
    const m = INTERACTION.exec(path);
    if (m) {
      if (!m[2] && (event.method === "GET" || event.method === "HEAD")) return showInteraction(event, deps, provider, m[1]);
      if (m[2] === "/confirm" && event.method === "POST") return confirmInteraction(event, deps, provider, m[1]);
      if (m[2] === "/abort" && event.method === "POST") return abortInteraction(event, deps, provider, m[1]);
    }
    if (callback?.provider !== provider) callback = { provider, run: provider.callback() };
    const { req, res } = event.node;
    // The provider sets its own content type and caching; the kernel's JSON defaults must not win.
    res.removeHeader("content-type");
    if (discovery) req.url = `/.well-known/openid-configuration${req.url!.slice(path.length)}`;
    await new Promise<void>((resolve) => {
      res.once("finish", resolve);
      res.once("close", resolve);
      callback!.run(req, res);
    });
  };
}
