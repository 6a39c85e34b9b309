import { defineEventHandler, setResponseStatus } from "h3";
import { AuthError } from "../../core/errors.js";
import { getUser } from "../../core/users.js";
import type { AdminRoute, AdminUserCreator } from "../../http/admin/route.js";
import { adminUserJson, booleanField, pathParam, stringField } from "../../http/admin/input.js";
import { fieldError, notFound } from "../../http/admin/users.js";
import { readJsonBody } from "../../http/body.js";
import type { HttpDeps } from "../../http/deps.js";
import type { PersonAction, PersonPagePart, PersonPanel } from "../../http/person-panels.js";
import type { LoginMethod, UserView } from "../../core/users.js";
import { EMAIL_EXISTS, setPassword, signUpWithPassword } from "./accounts.js";
import { noPasswordWords } from "./no-password.js";
import { createPasswordResetLink } from "./reset-link.js";

/** PUT /users/:id/password {password}: policy-checked; every session of the user is revoked. */
export const setPasswordHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const id = pathParam(event, "id");
    const password = stringField(await readJsonBody(event, deps.ctx.config.bodyLimit), "password");
    const user = await getUser(deps.ctx, id);
    if (!user) throw notFound();
    const r = await setPassword(deps.ctx, id, password, "admin-api");
    if (r.status === "NO_PASSWORD_LOGIN") throw new AuthError("CONFLICT", `This user ${noPasswordWords(deps.ctx, user, id)}`);
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
    if (r.status === "NO_PASSWORD_LOGIN") throw new AuthError("CONFLICT", `This user ${noPasswordWords(deps.ctx, await getUser(deps.ctx, id), id)} to reset`);
    return { link: r.link, expiresAt: r.expiresAt, mailed: r.mailed };
  });

/** Passwords' admin routes (under /admin/v1). */
export const emailPasswordAdminRoutes: readonly AdminRoute[] = [
  { method: "PUT", path: "/users/:id/password", handler: setPasswordHandler },
  { method: "POST", path: "/users/:id/reset-link", handler: resetLinkHandler },
];

const passwordLogin = (p: UserView) => p.loginMethods.find((m) => m.recipeId === "emailpassword");
const noPassword = (text: string) => ({ kind: "error" as const, text });

/** The dashboard's POST …/reset-link: the link goes by mail only, the dashboard never shows a live token. */
const sendResetLink: PersonAction = {
  path: "reset-link",
  run: async (ctx, p, { source }) => {
    const login = passwordLogin(p);
    const res = login && await createPasswordResetLink(ctx, login.recipeUserId, { mail: true, source });
    if (!login || res?.status !== "OK") return noPassword("This user has no password login, so there is no password to reset.");
    return { kind: "ok", text: `A password-reset link was mailed to ${login.email}.` };
  },
};

/** The dashboard's POST …/password: policy-checked, and every session of theirs ends. */
const changePassword: PersonAction = {
  path: "password",
  run: async (ctx, p, { form, source }) => {
    const login = passwordLogin(p);
    if (!login) return noPassword("This user has no password login.");
    const res = await setPassword(ctx, login.recipeUserId, form.get("password") ?? "", source);
    if (res.status === "NO_PASSWORD_LOGIN") return noPassword("This user has no password login.");
    if (res.status === "FIELD_ERROR") return { kind: "error", text: `Password not changed: ${res.formFields.map((f) => f.error).join(" ")}` };
    return { kind: "ok", text: `Password set; ${res.revokedSessions} session${res.revokedSessions === 1 ? "" : "s"} ended.` };
  },
};

/** The person page's "Password" panel: mail a reset link, or set a password. */
const passwordPanel: PersonPanel<LoginMethod | undefined> = {
  id: "password",
  title: "Password",
  place: "after-locks",
  load: async (_ctx, p) => passwordLogin(p),
  render: (login, k) => {
    if (!login) return "<p>No password login: they sign in another way.</p>";
    return `${k.button("reset-link", "Send a password-reset link", `to ${login.email}`)}
<form method="post" action="${k.escape(k.action("password"))}" class="stack">${k.csrfField}
<label for="new-password">New password for ${k.escape(login.email)}</label>
<input id="new-password" name="password" type="password" required autocomplete="new-password" aria-describedby="new-password-hint">
<p id="new-password-hint" class="muted">The password policy applies. Every session of theirs ends, and they get a mail saying the password changed.</p>
<button type="submit">Set password</button>
</form>`;
  },
};

/** Passwords on the dashboard's person page: the panel and its two actions. */
export const passwordPersonPage: PersonPagePart = { panels: [passwordPanel], actions: [sendResetLink, changePassword] };
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
