import { defineEventHandler } from "h3";
import { signUpWithPassword, toUserJson } from "../../core/users.js";
import { readJsonBody } from "../body.js";
import type { HttpDeps } from "../deps.js";
import { parseFormFields } from "../form-fields.js";
import { createSessionResponse } from "../session-guard.js";

/** POST /signup (seed #1): create an email/password user and start a session in the requested mode. */
export const signUp = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const { email, password } = parseFormFields(body, ["email", "password"]);
    const r = await signUpWithPassword(deps.ctx, { email, password });
    if (r.status !== "OK") return r;
    const tokenFields = await createSessionResponse(event, deps, r.user.id);
    return { status: "OK", user: toUserJson(r.user), ...tokenFields };
  });
