import { defineEventHandler } from "h3";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { verifyTotp } from "../devices.js";
import { requireMfaSession, requireString, sendMfaClaim } from "./session.js";

/** POST /totp/verify `{totp}` → OK with a new access token · UNKNOWN_USER_ID_ERROR · INVALID_TOTP_ERROR · LIMIT_REACHED_ERROR. */
export const totpVerify = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const { session, s } = await requireMfaSession(event, deps);
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const r = await verifyTotp(deps.ctx, s, requireString(body, "totp", 64).trim());
    if (r.status !== "OK") return r;
    return { status: "OK", ...(await sendMfaClaim(event, deps, session, r.claim)) };
  });
