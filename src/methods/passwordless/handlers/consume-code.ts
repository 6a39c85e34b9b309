import { defineEventHandler } from "h3";
import { badInput } from "../../../core/errors.js";
import { toUserJson } from "../../../core/users.js";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { readLinkingSessionUser } from "../../../http/linking-session.js";
import { createSessionResponse } from "../../../http/session-guard.js";
import { requestLocale } from "../../../http/pages/locale.js";
import { consumeCode, type ConsumeInput } from "../consume.js";
import { readFlowId, readOptionalCode } from "./flow-input.js";

/**
 * POST /signinup/code/consume: a link code, or a deviceId and the typed code; on success a session
 * whose first factor is the one the code proved (link-email or otp-email).
 */
export const consumeCodeHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const input = parseConsumeBody(body);
    input.session = await readLinkingSessionUser(event, deps, body);
    // A new person reads their mail in the language they signed up in (the page's, else the browser's).
    input.locale = requestLocale(event, deps.ctx.words);
    const r = await consumeCode(deps.ctx, input);
    deps.ctx.metrics.signIn("passwordless", r.status === "OK" ? "success" : r.status.toLowerCase());
    if (r.status !== "OK") return r;
    const tokenFields = await createSessionResponse(event, deps, r.recipeUserId, r.factor);
    return { status: "OK", createdNewRecipeUser: r.createdNewRecipeUser, user: toUserJson(r.user), ...tokenFields };
  });

/** The two shapes of the body, with supertokens-node's 400 texts (api/consumeCode.ts). */
export function parseConsumeBody(body: Record<string, unknown>): ConsumeInput {
  const preAuthSessionId = readFlowId(body, "preAuthSessionId");
  const linkCode = readOptionalCode(body, "linkCode");
  const deviceId = readOptionalCode(body, "deviceId");
  const userInputCode = readOptionalCode(body, "userInputCode");
  const typed = deviceId !== undefined || userInputCode !== undefined;
  if ((linkCode !== undefined) === typed) throw badInput("Please provide one of (linkCode) or (deviceId+userInputCode) and not both");
  if (linkCode !== undefined) return { preAuthSessionId, linkCode };
  if (deviceId === undefined || userInputCode === undefined) throw badInput("Please provide both deviceId and userInputCode");
  return { preAuthSessionId, deviceId, userInputCode };
}
