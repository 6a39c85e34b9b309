import { defineEventHandler, getQuery, sendRedirect, setCookie } from "h3";
import { AuthError } from "../core/errors.js";
import type { Route } from "../http/route.js";
import { attachNewSession } from "../http/session-guard.js";
import { buildFrontToken, cookiePolicy } from "../http/session-transport.js";

/** The cookie the frontend SDKs keep the front token in (http/pages/assets/api.js keeps the same). */
const FRONT_TOKEN_COOKIE = "sFrontToken";
import { HANDOVER_PATH, redeemSupportLink } from "./support.js";

/**
 * GET {apiBasePath}/support-session?token=…: the one-time link the dashboard sends the admin's
 * browser to. It sets the support session's cookies (cookie mode, as a sign-in on the hosted pages
 * does, and the `sFrontToken` the frontend SDKs read) and goes on to the app's website. A used, expired or ended link is 400, nothing set.
 */
export const supportRoutes: readonly Route[] = [
  {
    method: "GET", path: HANDOVER_PATH, session: "none", limits: ["invalid-token-ip", "token-ip"],
    handler: (deps) => defineEventHandler(async (event) => {
      const token = getQuery(event).token;
      const tokens = typeof token === "string" ? await redeemSupportLink(deps.ctx, token) : undefined;
      if (!tokens) throw new AuthError("BAD_INPUT", "This support-session link was used already, has expired, or its session ended: start a new one from the dashboard.");
      attachNewSession(event, deps, "cookie", tokens);
      // The frontend SDKs' (and the hosted pages') sign that a session exists, which they keep
      // themselves from the front-token header of a fetch: a navigation leaves it to us. Not
      // HttpOnly, written as they write it (raw, path /, SameSite=Lax).
      const p = cookiePolicy(deps.ctx.config);
      setCookie(event, FRONT_TOKEN_COOKIE, buildFrontToken(tokens.accessTokenPayload), {
        path: "/", sameSite: "lax", secure: p.secure, domain: p.domain, httpOnly: false, expires: new Date(tokens.refreshTokenExpiresAt), encode: (v) => v,
      });
      return sendRedirect(event, deps.ctx.config.websiteUrl, 303);
    }),
  },
];
