import { defineEventHandler, getQuery } from "h3";
import { doesEmailPasswordAccountExist } from "../email-exists.js";
import { badInput } from "../../../core/errors.js";
import type { HttpDeps } from "../../../http/deps.js";

/** GET /emailpassword/email/exists?email= (and the legacy /signup/email/exists). */
export const emailExists = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const email = getQuery(event).email;
    if (typeof email !== "string" || email.trim() === "") throw badInput("Please provide the email as a GET param");
    if (email.length > 1024) throw badInput("The email is too long");
    return { status: "OK", exists: await doesEmailPasswordAccountExist(deps.ctx, email) };
  });
