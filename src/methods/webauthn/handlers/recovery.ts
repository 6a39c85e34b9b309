import { defineEventHandler, setResponseHeader } from "h3";
import { canonicalEmail, isValidEmail } from "../../../core/emails.js";
import { badInput } from "../../../core/errors.js";
import { enforceMailLimits } from "../../../core/limits.js";
import { requireTokenString } from "../../../core/one-time-tokens.js";
import { toUserJson } from "../../../core/users.js";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { acceptRecoveryRequest, recoverWithPasskey } from "../recovery.js";
import { parseOptionsId, parseRegistrationCredential } from "./input.js";

/**
 * POST /user/webauthn/reset/token `{email}`: always `{"status":"OK"}`. Every well-formed address
 * counts against the per-address mail budget (shared with password resets), account or not.
 */
export const recoveryToken = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    if (typeof body.email !== "string") throw badInput("Please provide the email as a string");
    if (isValidEmail(canonicalEmail(body.email))) await enforceMailLimits(deps.ctx, body.email, "reset");
    setResponseHeader(event, "cache-control", "no-store");
    return acceptRecoveryRequest(deps.ctx, body.email);
  });

/** POST /user/webauthn/reset `{token, webauthnGeneratedOptionsId, credential}`: a new passkey by recovery link. */
export const recoverAccount = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const token = requireTokenString(body.token, "account recovery");
    const optionsId = parseOptionsId(body.webauthnGeneratedOptionsId);
    const credential = parseRegistrationCredential(body.credential);
    setResponseHeader(event, "cache-control", "no-store");
    const r = await recoverWithPasskey(deps.ctx, { token, optionsId, credential });
    return r.status === "OK" ? { status: "OK", user: toUserJson(r.user), email: r.email } : r;
  });
