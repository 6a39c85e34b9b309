import { defineEventHandler, getQuery } from "h3";
import { canonicalEmail, isValidEmail } from "../../../core/emails.js";
import { badInput } from "../../../core/errors.js";
import type { HttpDeps } from "../../../http/deps.js";
import { passkeyEmailExists } from "../accounts.js";

/** GET /webauthn/email/exists?email=: whether the address has a passkey login. */
export const passkeyEmailExistsHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const email = getQuery(event).email;
    if (typeof email !== "string" || email.trim() === "") throw badInput("Please provide the email as a GET param");
    if (email.length > 1024) throw badInput("The email is too long");
    // An address that cannot be one (a NUL byte PostgreSQL refuses, say) has no passkey: no lookup.
    const canonical = canonicalEmail(email);
    return { status: "OK", exists: isValidEmail(canonical) && (await passkeyEmailExists(deps.ctx, canonical)) };
  });
