import { defineEventHandler, setResponseHeader } from "h3";
import { verifyEmailWithToken } from "../../core/email-verification.js";
import { requireTokenString } from "../../core/one-time-tokens.js";
import { readJsonBody } from "../body.js";
import type { HttpDeps } from "../deps.js";
import { optionalSession, requireSession, updateEmailVerificationClaim } from "../session-guard.js";

/**
 * POST /user/email/verify (seed #5): {"method":"token","token"}; `method` is ignored, as in the
 * SuperTokens SDK. By default the user's own session is required (PROTOCOL.md §7: it also defends
 * against pre-account hijacking) and checked against the store; with
 * emailVerificationRequiresSession off a session is optional, but a present and expired one is
 * still 401 "try refresh token". The answer is {status} only, never the user; when the session
 * belongs to the user just verified, its `st-ev` claim is re-issued as true.
 */
export const emailVerify = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    // The token's shape first, as the SuperTokens SDK does: a malformed body is a 400 either way.
    const token = requireTokenString(body.token, "email verification");
    const session = deps.ctx.config.emailVerificationRequiresSession
      ? await requireSession(event, deps, { checkDatabase: true, allowIncompleteMfa: true })
      : await optionalSession(event, deps, { allowIncompleteMfa: true });
    const r = await verifyEmailWithToken(deps.ctx, token, { sessionUserId: session?.userId });
    setResponseHeader(event, "cache-control", "no-store");
    if (r.status !== "OK") return { status: r.status };
    const tokenFields = session && session.userId === r.userId ? await updateEmailVerificationClaim(event, deps, session, true) : {};
    return { status: "OK", ...tokenFields };
  });
