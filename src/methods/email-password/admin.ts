import { defineEventHandler, setResponseStatus } from "h3";
import { AuthError } from "../../core/errors.js";
import { getUser } from "../../core/users.js";
import type { AdminRoute, AdminUserCreator } from "../../http/admin/route.js";
import { adminUserJson, booleanField, pathParam, stringField } from "../../http/admin/input.js";
import { fieldError, notFound } from "../../http/admin/users.js";
import { readJsonBody } from "../../http/body.js";
import type { HttpDeps } from "../../http/deps.js";
import { EMAIL_EXISTS, setPassword, signUpWithPassword } from "./accounts.js";
import { createPasswordResetLink } from "./reset-link.js";

/** PUT /users/:id/password {password}: policy-checked; every session of the user is revoked. */
export const setPasswordHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const id = pathParam(event, "id");
    const password = stringField(await readJsonBody(event, deps.ctx.config.bodyLimit), "password");
    if (!(await getUser(deps.ctx, id))) throw notFound();
    const r = await setPassword(deps.ctx, id, password, "admin-api");
    if (r.status === "NO_PASSWORD_LOGIN") throw new AuthError("CONFLICT", "This user signs in with a third-party provider and has no password");
    if (r.status === "FIELD_ERROR") {
      setResponseStatus(event, 400);
      return fieldError(r.formFields);
    }
    return { id, revokedSessions: r.revokedSessions };
  });

/** POST /users/:id/reset-link {mail?}: a password-reset link for the backend to deliver (or mailed too). */
export const resetLinkHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const id = pathParam(event, "id");
    const mail = booleanField(await readJsonBody(event, deps.ctx.config.bodyLimit), "mail", false);
    const r = await createPasswordResetLink(deps.ctx, id, { mail, source: "admin-api" });
    if (r.status === "NOT_FOUND") throw notFound();
    if (r.status === "NO_PASSWORD_LOGIN") throw new AuthError("CONFLICT", "This user signs in with a third-party provider and has no password to reset");
    return { link: r.link, expiresAt: r.expiresAt, mailed: r.mailed };
  });

/** Passwords' admin routes (under /admin/v1). */
export const emailPasswordAdminRoutes: readonly AdminRoute[] = [
  { method: "PUT", path: "/users/:id/password", handler: setPasswordHandler },
  { method: "POST", path: "/users/:id/reset-link", handler: resetLinkHandler },
];

/** POST /users {email, password, verified?} (the default way): the same rules as sign-up (policy, unique address). */
export const passwordUserCreator: AdminUserCreator = {
  async create(deps, body) {
    const r = await signUpWithPassword(deps.ctx, { email: stringField(body, "email"), password: stringField(body, "password"), verified: booleanField(body, "verified", false), source: "admin-api" });
    if (r.status === "SIGN_UP_NOT_ALLOWED") {
      return { status: 409, answer: { status: "SIGN_UP_NOT_ALLOWED", message: "Another user has this address and it is not verified on this login: pass verified: true to link it to them." } };
    }
    if (r.status !== "OK") return { status: r.formFields.some((f) => f.error === EMAIL_EXISTS) ? 409 : 400, answer: fieldError(r.formFields) };
    return { status: 201, answer: { user: adminUserJson(r.user) } };
  },
};
