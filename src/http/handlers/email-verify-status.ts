import { defineEventHandler } from "h3";
import type { HttpDeps } from "../deps.js";
import { sessionOf } from "../guard.js";
import { updateEmailVerificationClaim } from "../session-guard.js";

/**
 * GET /user/email/verify (seed #3), the hot path a frontend polls: one query (session row + verified
 * state); the access token is re-signed only when the stored state differs from its st-ev claim.
 */
export const emailVerifyStatus = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const session = sessionOf(event);
    const tokenFields = await updateEmailVerificationClaim(event, deps, session);
    return { status: "OK", isVerified: session.emailVerified === true, ...tokenFields };
  });
