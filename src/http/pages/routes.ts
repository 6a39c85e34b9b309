import { defineEventHandler, type EventHandler } from "h3";
import type { Config } from "../../config/types.js";
import type { HttpDeps } from "../deps.js";
import { hostedPageRoutes, type PageRoute } from "./route.js";
import { serveAsset } from "./assets.js";
import { assertLocalClient } from "./dev-guard.js";
import { devHome } from "./dev-home.js";
import { inboxDelete, inboxMessage, inboxMessageHtml, inboxMessages, inboxPage } from "./dev-inbox.js";
import { signInPage, signOutPage, verifyEmailPage } from "./hosted-pages.js";

/**
 * The pages' route table, beside the API's (routes.ts). Hosted pages exist only with `hostedPages`;
 * development pages only in development mode and only for loopback clients (`local`), so in
 * production every one of these paths is the API's plain 404.
 */
export function kernelPageRoutes(config: Readonly<Config>): PageRoute[] {
  const out: PageRoute[] = hostedPageRoutes(config, {
    "": signInPage, "/verify-email": verifyEmailPage, "/sign-out": signOutPage, "/_assets/:name": serveAsset,
  });
  if (config.mode === "development") {
    out.push(
      { method: "GET", path: "/", handler: devHome, local: true },
      { method: "GET", path: "/_dev/mail", handler: inboxPage, local: true },
      { method: "GET", path: "/_dev/mail/messages", handler: inboxMessages, local: true },
      { method: "GET", path: "/_dev/mail/messages/:id", handler: inboxMessage, local: true },
      { method: "GET", path: "/_dev/mail/messages/:id/html", handler: inboxMessageHtml, local: true },
      { method: "GET", path: "/_dev/mail/events", handler: (deps) => deps.devMailFeed!.handler, local: true },
      { method: "POST", path: "/_dev/mail/delete", handler: inboxDelete, local: true },
      { method: "GET", path: "/_dev/assets/:name", handler: serveAsset, local: true },
    );
  }
  return out;
}

/** The route's handler, behind the loopback guard when it is a development page. */
export function buildPageHandler(r: PageRoute, deps: HttpDeps): EventHandler {
  const handler = r.handler(deps);
  if (!r.local) return handler;
  const config = deps.ctx.config;
  return defineEventHandler((event) => {
    assertLocalClient(event, config);
    return handler(event);
  });
}
