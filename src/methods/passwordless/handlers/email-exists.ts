import { defineEventHandler, getQuery } from "h3";
import { canonicalEmail, isValidEmail } from "../../../core/emails.js";
import { badInput } from "../../../core/errors.js";
import type { HttpDeps } from "../../../http/deps.js";
import { findUserByEmail } from "../store.js";

/** GET /passwordless/email/exists?email=: true only when a passwordless login method has the address. */
export const passwordlessEmailExists = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const email = getQuery(event).email;
    if (typeof email !== "string" || email.trim() === "") throw badInput("Please provide the email as a GET param");
    if (email.length > 1024) throw badInput("The email is too long");
    const canonical = canonicalEmail(email);
    return { status: "OK", exists: isValidEmail(canonical) && (await findUserByEmail(deps.ctx.store.db, canonical)) !== undefined };
  });
