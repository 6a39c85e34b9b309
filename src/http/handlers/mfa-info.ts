import { defineEventHandler } from "h3";
import { getMfaInfo, MFA_CLAIM } from "../../core/mfa.js";
import type { HttpDeps } from "../deps.js";
import { sessionOf } from "../guard.js";
import { updateSessionClaims } from "../session-guard.js";

/**
 * PUT /mfa/info: the session's MFA picture (`factors.next`, `alreadySetup`, `allowedToSetup`, the
 * addresses per factor) and the `st-mfa` claim brought up to date (a new access token when it changed).
 */
export const mfaInfo = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const session = sessionOf(event);
    const info = await getMfaInfo(deps.ctx, { userId: session.userId, personId: session.primaryUserId, sessionHandle: session.sessionHandle });
    const tokenFields = await updateSessionClaims(event, deps, session, { [MFA_CLAIM]: info.claim });
    return { status: "OK", factors: info.factors, emails: info.emails, phoneNumbers: info.phoneNumbers, ...tokenFields };
  });
