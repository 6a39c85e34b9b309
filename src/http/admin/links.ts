import { defineEventHandler } from "h3";
import { AuthError } from "../../core/errors.js";
import { linkUsers, unlinkUser } from "../../core/linking-admin.js";
import { readJsonBody } from "../body.js";
import type { HttpDeps } from "../deps.js";
import { pathParam, stringField } from "./input.js";

/** POST /users/:id/links {userId}: the user `userId` (all their login methods) becomes part of user :id, who keeps their id. */
export const linkUsersHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const id = pathParam(event, "id");
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const r = await linkUsers(deps.ctx, id, stringField(body, "userId"), "admin-api");
    if (r.status === "NOT_FOUND") throw new AuthError("NOT_FOUND", `No such user: ${r.id}`);
    return { userId: r.personId, changed: r.changed };
  });

/** DELETE /users/:id/links: the login method with recipe user id :id leaves its user and becomes a user of its own. */
export const unlinkUserHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const r = await unlinkUser(deps.ctx, pathParam(event, "id"), "admin-api");
    if (r.status === "NOT_FOUND") throw new AuthError("NOT_FOUND", "No such user");
    if (r.status === "NOT_LINKED") throw new AuthError("CONFLICT", "This login method is not linked to another");
    return { userId: r.personId, remainingUserId: r.remainingPersonId };
  });
