import { defineEventHandler } from "h3";
import type { HttpDeps } from "../../../http/deps.js";
import { sessionOf } from "../../../http/guard.js";
import { regenerateRecoveryCodes } from "../recovery-codes.js";

/**
 * POST /totp/recovery-codes → a new set of recovery codes (the old set stops working). An ordinary
 * protected route: while `st-mfa.v` is false it answers the SDKs' 403 invalid claim.
 */
export const recoveryCodesCreate = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const session = sessionOf(event);
    return regenerateRecoveryCodes(deps.ctx, { userId: session.userId, personId: session.primaryUserId, sessionHandle: session.sessionHandle });
  });
