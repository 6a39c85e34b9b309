import { defineEventHandler, setResponseHeader } from "h3";
import { canonicalEmail, isValidEmail } from "../../../core/emails.js";
import { badInput } from "../../../core/errors.js";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { createRecoveryOptions } from "../recovery.js";
import { createAuthenticationOptions, createRegistrationOptions } from "../relying-party.js";

/**
 * POST /webauthn/options/register: `{email}` (sign-up, or adding a passkey) or
 * `{recoverAccountToken}` (a recovery link). The options never say whether the address has an
 * account: they are made the same way for every address.
 */
export const registerOptions = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    setResponseHeader(event, "cache-control", "no-store");
    const { email, recoverAccountToken } = body;
    if (recoverAccountToken !== undefined && recoverAccountToken !== null) {
      if (typeof recoverAccountToken !== "string") throw badInput("recoverAccountToken must be a string");
      return createRecoveryOptions(deps.ctx, recoverAccountToken);
    }
    if (email === undefined || email === null) throw badInput("Please provide the email or the recoverAccountToken");
    if (typeof email !== "string") throw badInput("email must be a string");
    const canonical = canonicalEmail(email);
    if (!isValidEmail(canonical)) return { status: "INVALID_EMAIL_ERROR", err: "Email is invalid" };
    return createRegistrationOptions(deps.ctx, { email: canonical });
  });

/** POST /webauthn/options/signin: a challenge for any passkey of this RP (discoverable credentials). */
export const signInOptions = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    await readJsonBody(event, deps.ctx.config.bodyLimit);
    setResponseHeader(event, "cache-control", "no-store");
    return createAuthenticationOptions(deps.ctx);
  });
