import { defineEventHandler } from "h3";
import { badInput } from "../../../core/errors.js";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { readLinkingSessionUser } from "../../../http/linking-session.js";
import { requestLocale } from "../../../http/pages/locale.js";
import { createCode } from "../codes.js";

/**
 * POST /signinup/code (recipes notes §2.1): start a flow and mail a code and/or a link. Per-IP
 * budget in the route table (mail-ip); per-address (mail-hourly) in core, for every valid address.
 */
export const createCodeHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const { email, phoneNumber } = body;
    const hasEmail = email !== undefined && email !== null;
    const hasPhone = phoneNumber !== undefined && phoneNumber !== null;
    if (hasEmail === hasPhone) throw badInput("Please provide exactly one of email or phoneNumber");
    if (hasPhone) throw badInput('Please provide an email since you have set the contactMethod to "EMAIL"');
    if (typeof email !== "string") throw badInput("email must be a string");
    if (email.length > 1024) throw badInput("The email is too long");
    // true needs a live session (401 otherwise); the code itself is the same either way.
    await readLinkingSessionUser(event, deps, body);
    // The mail is written in the sender's language (the pages' choice, else the browser's) until the address has one stored.
    return createCode(deps.ctx, email, requestLocale(event, deps.ctx.words));
  });
