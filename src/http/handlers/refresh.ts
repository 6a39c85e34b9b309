import { defineEventHandler } from "h3";
import { AuthError } from "../../core/errors.js";
import { refreshSession } from "../../core/sessions.js";
import type { HttpDeps } from "../deps.js";
import { assertNotCrossOrigin, needsCsrfHeader } from "../session-guard.js";
import { attachTokens, clearTokens, readBearer, readCookieValues, REFRESH_COOKIE, wantsBodyMode, type AuthMode } from "../session-transport.js";

const unauthorised = () => new AuthError("UNAUTHORISED", "unauthorised", { clearTokens: true });

/**
 * POST /session/refresh: `Authorization: Bearer <refresh token>` (header mode, or body mode with the
 * body-mode header) or the sRefreshToken cookie. Success is `{}` plus new tokens in the mode the
 * refresh token arrived in; every failure clears tokens in that mode (all modes if none was found).
 */
export const refresh = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const config = deps.ctx.config;
    let mode: AuthMode | "all" = "all";
    try {
      let token = readBearer(event);
      if (token) mode = wantsBodyMode(event, config) ? "body" : "header";
      else {
        const cookies = readCookieValues(event, REFRESH_COOKIE).filter((v) => v !== "");
        if (cookies.length > 1) throw unauthorised();
        if (cookies.length === 1) { token = cookies[0]; mode = "cookie"; }
      }
      if (!token) throw unauthorised();
      // Anti-CSRF (§3): a cross-site form cannot add a custom header without a preflight.
      if (needsCsrfHeader(event, deps, mode as AuthMode)) throw unauthorised();
      assertNotCrossOrigin(event, mode);
      const tokens = await refreshSession(deps.ctx, token);
      return attachTokens(event, config, mode as AuthMode, tokens, deps.ctx.clock.now());
    } catch (err) {
      if (err instanceof AuthError && err.details.clearTokens) clearTokens(event, config, mode);
      throw err;
    }
  });
