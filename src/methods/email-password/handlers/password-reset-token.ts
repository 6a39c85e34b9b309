import { defineEventHandler, setResponseHeader } from "h3";
import { canonicalEmail, isValidEmail } from "../../../core/emails.js";
import { enforceMailLimits } from "../../../core/limits.js";
import { acceptPasswordReset, requestPasswordReset } from "../password-reset.js";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { parseFormFields } from "../../../http/form-fields.js";

/**
 * POST /user/password/reset/token (seed #6): always {"status":"OK"} for a well-formed address,
 * whether or not an account exists. In development mode only, the body also carries the token
 * when one was created (PROTOCOL.md §8), so the work is done before answering. Otherwise the
 * answer goes out first and the work follows (acceptPasswordReset): same answer, same time.
 * Every well-formed address counts against the per-address mail budget, account or not, so its
 * 429 is the same for both (docs/security.md "Rate limits").
 */
export const passwordResetToken = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const { email } = parseFormFields(body, ["email"]);
    if (isValidEmail(canonicalEmail(email))) await enforceMailLimits(deps.ctx, email, "reset");
    setResponseHeader(event, "cache-control", "no-store");
    if (deps.ctx.config.mode !== "development") return acceptPasswordReset(deps.ctx, email);
    const r = await requestPasswordReset(deps.ctx, email);
    if (r.status === "FIELD_ERROR") return r;
    return r.token ? { status: "OK", token: r.token } : { status: "OK" };
  });
