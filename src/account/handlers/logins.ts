import { defineEventHandler, setResponseHeader } from "h3";
import { readJsonBody } from "../../http/body.js";
import type { HttpDeps } from "../../http/deps.js";
import { sessionOf } from "../../http/guard.js";
import { listMyLogins, removeMyLogin } from "../logins.js";
import { requireString, type AccountSubject } from "../reauth.js";

function subject(event: Parameters<typeof sessionOf>[0]): AccountSubject {
  const s = sessionOf(event);
  return { userId: s.userId, personId: s.primaryUserId, sessionHandle: s.sessionHandle };
}

/** GET /account/logins: every way into my account. */
export const myLogins = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const who = subject(event);
    setResponseHeader(event, "cache-control", "no-store");
    return { status: "OK", logins: await listMyLogins(deps.ctx, who) };
  });

/** POST /account/logins/remove {recipeUserId, password?}: removes one, after re-authentication. */
export const removeLogin = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const who = subject(event);
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    return removeMyLogin(deps.ctx, who, requireString(body, "recipeUserId"), body.password);
  });
