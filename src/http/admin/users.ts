import { defineEventHandler, setResponseStatus } from "h3";
import { canonicalEmail, isValidEmail } from "../../core/emails.js";
import { AuthError, badInput } from "../../core/errors.js";
import { findUsersByEmail, listUserPage, setUserEmailVerified } from "../../core/user-directory.js";
import { deleteUser, getUser, type FieldError } from "../../core/users.js";
import { readJsonBody } from "../body.js";
import type { HttpDeps } from "../deps.js";
import { adminUserJson, booleanField, pathParam, queryParam } from "./input.js";

export const notFound = () => new AuthError("NOT_FOUND", "No such user");
export const fieldError = (formFields: FieldError[]) => ({ message: formFields.map((f) => `${f.id}: ${f.error}`).join("; "), formFields });

/** GET /users?email=E (every user that address belongs to) or GET /users?search=&limit=&cursor= (a page). */
export const listUsersHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const email = queryParam(event, "email");
    if (email !== undefined) {
      if (!isValidEmail(canonicalEmail(email))) throw badInput("email must be a valid address");
      return { users: (await findUsersByEmail(deps.ctx, email)).map(adminUserJson) };
    }
    const limitRaw = queryParam(event, "limit");
    const limit = limitRaw === undefined ? undefined : /^\d{1,4}$/.test(limitRaw) ? Number(limitRaw) : NaN;
    if (Number.isNaN(limit)) throw badInput("limit must be a whole number");
    const page = await listUserPage(deps.ctx, { limit, cursor: queryParam(event, "cursor"), search: queryParam(event, "search") });
    return { users: page.users.map(adminUserJson), nextCursor: page.nextCursor };
  });

/** GET /users/:id */
export const getUserHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const user = await getUser(deps.ctx, pathParam(event, "id"));
    if (!user) throw notFound();
    return { user: adminUserJson(user) };
  });

/**
 * POST /users: the sign-in methods' creators decide (Room.adminUserCreator), the first whose `when`
 * holds for the body, else the default one; each applies the rules its sign-up applies.
 */
export const createUserHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const creators = deps.tables.userCreators;
    const creator = creators.find((c) => c.when?.(body)) ?? creators.find((c) => !c.when);
    if (!creator) throw badInput("no sign-in method creates users here");
    const r = await creator.create(deps, body);
    setResponseStatus(event, r.status);
    return r.answer;
  });

/** DELETE /users/:id: the user and everything attached (sessions, tokens, logins). */
export const deleteUserHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const id = pathParam(event, "id");
    if (!(await deleteUser(deps.ctx, id, "admin-api"))) throw notFound();
    return { deleted: id };
  });

/** PUT /users/:id/verified {verified}: marks the current email verified or unverified. */
export const setVerifiedHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const id = pathParam(event, "id");
    const verified = booleanField(await readJsonBody(event, deps.ctx.config.bodyLimit), "verified");
    const r = await setUserEmailVerified(deps.ctx, id, verified, "admin-api");
    if (!r) throw notFound();
    return { id, verified, changed: r.changed };
  });
