import { defineEventHandler } from "h3";
import { AuthError } from "../../core/errors.js";
import type { HttpDeps } from "../../http/deps.js";
import type { Route } from "../../http/route.js";
import { createPowChallenge } from "./pow.js";

/**
 * GET /captcha/challenge: a new proof-of-work challenge (ALTCHA's JSON, which the widget fetches;
 * an SDK app's own widget or solver too). Only with --captcha pow; 404 otherwise. Nothing is
 * stored: the challenge is signed, and checked when its solution comes back.
 */
export const captchaChallenge = (deps: HttpDeps) =>
  defineEventHandler(async () => {
    if (deps.ctx.config.captcha !== "pow") throw new AuthError("NOT_FOUND", "Not Found");
    return createPowChallenge(deps.ctx);
  });

/** The protection room's slice of the route table. */
export const protectionRoutes: readonly Route[] = [
  { method: "GET", path: "/captcha/challenge", session: "none", handler: captchaChallenge },
];
