import { defineEventHandler } from "h3";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { useRecoveryCode } from "../recovery-codes.js";
import { requireMfaSession, requireString, sendMfaClaim } from "./session.js";

/**
 * POST /totp/recovery-code/verify `{recoveryCode}` (authsvc's own, beyond the SDKs) → OK
 * `{remainingRecoveryCodes}` with a new access token, as a TOTP code would give ·
 * INVALID_RECOVERY_CODE_ERROR · LIMIT_REACHED_ERROR (shared with TOTP codes).
 */
export const recoveryCodeVerify = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const { session, s } = await requireMfaSession(event, deps);
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const r = await useRecoveryCode(deps.ctx, s, requireString(body, "recoveryCode", 128));
    if (r.status !== "OK") return r;
    return { status: "OK", remainingRecoveryCodes: r.remainingRecoveryCodes, ...(await sendMfaClaim(event, deps, session, r.claim)) };
  });
