import { defineEventHandler, setResponseHeader } from "h3";
import { requestEmailVerification } from "../../core/email-verification.js";
import { enforceVerificationMailLimits } from "../../core/limits.js";
import type { HttpDeps } from "../deps.js";
import { sessionOf } from "../guard.js";
import { updateEmailVerificationClaim } from "../session-guard.js";

/**
 * POST /user/email/verify/token (seed #4): issues a verification token for the signed-in user's
 * address and mails it. The session row is checked (a revoked session must not be able to mail
 * tokens). Already verified → EMAIL_ALREADY_VERIFIED_ERROR, and an `st-ev` claim that still says
 * false is re-issued so the frontend stops asking. The token is in the body in development mode
 * only (PROTOCOL.md §8), never in production.
 */
export const emailVerifyToken = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const session = sessionOf(event);
    await enforceVerificationMailLimits(deps.ctx, session.userId);
    const r = await requestEmailVerification(deps.ctx, session.userId);
    if (r.status === "EMAIL_ALREADY_VERIFIED_ERROR") {
      const tokenFields = await updateEmailVerificationClaim(event, deps, session, true);
      return { status: "EMAIL_ALREADY_VERIFIED_ERROR", ...tokenFields };
    }
    // A claim that says verified while the address is not (it changed since) is corrected too.
    const tokenFields = await updateEmailVerificationClaim(event, deps, session, false);
    setResponseHeader(event, "cache-control", "no-store");
    if (deps.ctx.config.mode === "development") return { status: "OK", token: r.token, ...tokenFields };
    return { status: "OK", ...tokenFields };
  });
