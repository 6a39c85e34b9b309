import { defineEventHandler, setResponseHeader, type H3Event } from "h3";
import { verifyEmailWithToken } from "../../core/email-verification.js";
import { requireTokenString } from "../../core/one-time-tokens.js";
import { readJsonBody } from "../body.js";
import type { HttpDeps } from "../deps.js";
import { maybeSessionOf } from "../guard.js";
import { updateEmailVerificationClaim } from "../session-guard.js";

/**
 * POST /user/email/verify (seed #5): {"method":"token","token"}; `method` is ignored, as in the
 * SuperTokens SDK. By default the user's own session is required (PROTOCOL.md §7: it also defends
 * against pre-account hijacking) and checked against the store; with
 * emailVerificationRequiresSession off a session is optional, but a present and expired one is
 * still 401 "try refresh token". The answer is {status} only, never the user; when the session
 * belongs to the user just verified, its `st-ev` claim is re-issued as true.
 */
/** The token's shape, checked before the session (Route.shapeFirst), as the SuperTokens SDK does: a malformed body is a 400 either way. */
export async function emailVerifyShape(event: H3Event, deps: HttpDeps): Promise<void> {
  requireTokenString((await readJsonBody(event, deps.ctx.config.bodyLimit)).token, "email verification");
}

export const emailVerify = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    // The route checked the token's shape, then the session (http/routes.ts: required, or if sent).
    const token = requireTokenString(body.token, "email verification");
    const session = maybeSessionOf(event);
    const r = await verifyEmailWithToken(deps.ctx, token, { sessionUserId: session?.userId });
    setResponseHeader(event, "cache-control", "no-store");
    if (r.status !== "OK") return { status: r.status };
    const tokenFields = session && session.userId === r.userId ? await updateEmailVerificationClaim(event, deps, session, true) : {};
    return { status: "OK", ...tokenFields };
  });
