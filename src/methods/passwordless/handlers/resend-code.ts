import { defineEventHandler } from "h3";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { requestLocale } from "../../../http/pages/locale.js";
import { resendCode } from "../codes.js";
import { readFlowId } from "./flow-input.js";

/** POST /signinup/code/resend: a new code for the same device, mailed; RESTART_FLOW_ERROR for an unknown one. */
export const resendCodeHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const preAuthSessionId = readFlowId(body, "preAuthSessionId");
    const deviceId = readFlowId(body, "deviceId");
    return resendCode(deps.ctx, { deviceId, preAuthSessionId, locale: requestLocale(event, deps.ctx.words) });
  });
