import { defineEventHandler } from "h3";
import { AuthError } from "../../core/errors.js";
import { listUserSessions, revokeAllUserSessions, revokeSessionByHandle } from "../../core/session-admin.js";
import { getUser } from "../../core/users.js";
import type { HttpDeps } from "../deps.js";
import { pathParam } from "./input.js";

async function requireUser(deps: HttpDeps, id: string): Promise<void> {
  if (!(await getUser(deps.ctx, id))) throw new AuthError("NOT_FOUND", "No such user");
}

/** GET /users/:id/sessions: live sessions, newest first (handles and times, never tokens). */
export const userSessions = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const id = pathParam(event, "id");
    await requireUser(deps, id);
    return { sessions: await listUserSessions(deps.ctx, id) };
  });

/** DELETE /users/:id/sessions: revokes them all; their refresh tokens fail from now on. */
export const revokeUserSessionsHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const id = pathParam(event, "id");
    await requireUser(deps, id);
    return { revoked: await revokeAllUserSessions(deps.ctx, id, "admin-api") };
  });

/** DELETE /sessions/:handle: revokes one session. */
export const revokeOneSession = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const r = await revokeSessionByHandle(deps.ctx, pathParam(event, "handle"), "admin-api");
    if (r.status === "not_found") throw new AuthError("NOT_FOUND", "No such session");
    return { handle: pathParam(event, "handle"), userId: r.userId, revoked: r.status === "revoked" };
  });
