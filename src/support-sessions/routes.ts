import { defineEventHandler, getQuery, sendRedirect } from "h3";
import { AuthError } from "../core/errors.js";
import type { Route } from "../http/route.js";
import { attachNewSession } from "../http/session-guard.js";
import { HANDOVER_PATH, redeemSupportLink } from "./support.js";

/**
 * GET {apiBasePath}/support-session?token=…: the one-time link the dashboard sends the admin's
 * browser to. It sets the support session's cookies (cookie mode, as a sign-in on the hosted pages
 * does) and goes on to the app's website. A used, expired or ended link is 400, nothing set.
 */
export const supportRoutes: readonly Route[] = [
  {
    method: "GET", path: HANDOVER_PATH, session: "none", limits: ["invalid-token-ip", "token-ip"],
    handler: (deps) => defineEventHandler(async (event) => {
      const token = getQuery(event).token;
      const tokens = typeof token === "string" ? await redeemSupportLink(deps.ctx, token) : undefined;
      if (!tokens) throw new AuthError("BAD_INPUT", "This support-session link was used already, has expired, or its session ended: start a new one from the dashboard.");
      event.node.res.setHeader("cache-control", "no-store");
      attachNewSession(event, deps, "cookie", tokens);
      return sendRedirect(event, deps.ctx.config.websiteUrl, 303);
    }),
  },
];
