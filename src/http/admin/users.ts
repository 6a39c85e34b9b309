import { defineEventHandler, setResponseStatus } from "h3";
import { canonicalEmail, isValidEmail } from "../../core/emails.js";
import { AuthError, badInput } from "../../core/errors.js";
import { findUsersByEmail, listUserPage, setUserEmailVerified } from "../../core/user-directory.js";
import { deleteUser, getUser, type FieldError } from "../../core/users.js";
import { EMAIL_EXISTS, signUpWithPassword } from "../../methods/email-password/accounts.js";
import { createPasswordlessUser } from "../../methods/passwordless/consume.js";
import { readJsonBody } from "../body.js";
import type { HttpDeps } from "../deps.js";
import { adminUserJson, booleanField, pathParam, queryParam, stringField } from "./input.js";

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
 * POST /users {email, password, verified?}: the same rules as sign-up (policy, unique address).
 * {email, passwordless: true} instead: a user who signs in with mailed codes only.
 */
export const createUserHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    if (booleanField(body, "passwordless", false)) {
      if (body.password !== undefined) throw badInput("give either password or passwordless: true, not both");
      const p = await createPasswordlessUser(deps.ctx, { email: stringField(body, "email"), source: "admin-api" });
      if (p.status === "INVALID_EMAIL") throw badInput(p.message);
      if (p.status !== "OK") {
        setResponseStatus(event, 409);
        return { message: p.message };
      }
      setResponseStatus(event, 201);
      return { user: adminUserJson(p.user) };
    }
    const r = await signUpWithPassword(deps.ctx, { email: stringField(body, "email"), password: stringField(body, "password"), verified: booleanField(body, "verified", false), source: "admin-api" });
    if (r.status === "SIGN_UP_NOT_ALLOWED") {
      setResponseStatus(event, 409);
      return { status: "SIGN_UP_NOT_ALLOWED", message: "Another user has this address and it is not verified on this login: pass verified: true to link it to them." };
    }
    if (r.status !== "OK") {
      setResponseStatus(event, r.formFields.some((f) => f.error === EMAIL_EXISTS) ? 409 : 400);
      return fieldError(r.formFields);
    }
    setResponseStatus(event, 201);
    return { user: adminUserJson(r.user) };
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
