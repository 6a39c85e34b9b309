import { defineEventHandler } from "h3";
import { canonicalEmail, isValidEmail } from "../../../core/emails.js";
import { admitSignIn, settleSignIn } from "../../../core/limits.js";
import { recordFailedSignIn } from "../../../core/sign-in-failures.js";
import { notePasswordSignIn } from "../../../core/passwords.js";
import { toUserJson } from "../../../core/users.js";
import { signInWithPassword } from "../accounts.js";
import { signInThroughOldSystem } from "../lazy-migration.js";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { parseFormFields } from "../../../http/form-fields.js";
import { createSessionResponse } from "../../../http/session-guard.js";
import { readLinkingSessionUser } from "../../../http/linking-session.js";

/**
 * POST /signin (seed #2). Empty fields and malformed addresses are FIELD_ERROR (no password policy
 * here); every credential failure is the same WRONG_CREDENTIALS_ERROR with no session. The
 * address's failure budget is checked (and the attempt counted) before bcrypt runs: a locked
 * address gets 429 even with the right password; a success forgets its failures. With lazy
 * migration on, an address nobody has here is checked by the old system instead (lazy-migration.ts),
 * inside the same budgets.
 */
export const signIn = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const { email, password } = parseFormFields(body, ["email", "password"]);
    const formFields: { id: string; error: string }[] = [];
    if (password === "") formFields.push({ id: "password", error: "Field is not optional" });
    if (email === "") formFields.push({ id: "email", error: "Field is not optional" });
    else if (!isValidEmail(canonicalEmail(email))) formFields.push({ id: "email", error: "Email is invalid" });
    if (formFields.length) {
      deps.ctx.metrics.signIn("emailpassword", "field_error");
      return { status: "FIELD_ERROR", formFields };
    }
    const session = await readLinkingSessionUser(event, deps, body);
    const ticket = await admitSignIn(deps.ctx, email);
    const r = (await signInThroughOldSystem(deps.ctx, { email, password, session })) ?? (await signInWithPassword(deps.ctx, { email, password, session }));
    // A refused sign-in had the right password: it does not count as a failure.
    await settleSignIn(deps.ctx, ticket, r.status !== "WRONG_CREDENTIALS_ERROR");
    deps.ctx.metrics.signIn("emailpassword", r.status === "OK" ? "success" : r.status === "SIGN_IN_NOT_ALLOWED" ? "not_allowed" : "wrong_credentials");
    if (r.status === "SIGN_IN_NOT_ALLOWED") return { status: r.status, reason: r.reason };
    if (r.status !== "OK") {
      recordFailedSignIn(deps.ctx, "emailpassword");
      return { status: "WRONG_CREDENTIALS_ERROR" };
    }
    // The rooms hear of the password that signed in before the session's claims are computed (a breached one).
    await notePasswordSignIn(deps.ctx, r.recipeUserId, password);
    const tokenFields = await createSessionResponse(event, deps, r.recipeUserId, "emailpassword");
    return { status: "OK", user: toUserJson(r.user), ...tokenFields };
  });
