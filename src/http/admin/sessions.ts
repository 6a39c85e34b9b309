import { defineEventHandler } from "h3";
import { AuthError } from "../../core/errors.js";
import { listUserSessions, revokeSessionByHandle, signOutEverywhere } from "../../core/session-admin.js";
import { countEnded } from "../../core/ways-in.js";
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

/**
 * DELETE /users/:id/sessions: signs the person out everywhere (every way in: sessions, apps' grants);
 * their refresh tokens fail from now on. `revoked`: the sessions; `ended`: each way in.
 */
export const revokeUserSessionsHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const id = pathParam(event, "id");
    await requireUser(deps, id);
    const ended = countEnded(await signOutEverywhere(deps.ctx, id, "admin-api"));
    return { revoked: ended.sessions ?? 0, ended };
  });

/** DELETE /sessions/:handle: revokes one session. */
export const revokeOneSession = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const r = await revokeSessionByHandle(deps.ctx, pathParam(event, "handle"), "admin-api");
    if (r.status === "not_found") throw new AuthError("NOT_FOUND", "No such session");
    return { handle: pathParam(event, "handle"), userId: r.userId, revoked: r.status === "revoked" };
  });
