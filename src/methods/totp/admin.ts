import { defineEventHandler } from "h3";
import type { AdminRoute } from "../../http/admin/route.js";
import { AuthError } from "../../core/errors.js";
import { resetSecondFactor } from "./reset.js";
import type { HttpDeps } from "../../http/deps.js";
import { pathParam } from "../../http/admin/input.js";

/** DELETE /users/:id/mfa: removes the user's second factor (devices, recovery codes), records an event and mails them. */
export const resetMfaHandler = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const r = await resetSecondFactor(deps.ctx, pathParam(event, "id"), "admin-api");
    if (r.status === "NOT_FOUND") throw new AuthError("NOT_FOUND", "No such user");
    return { userId: r.userId, removedDevices: r.removedDevices, changed: r.changed };
  });

/** The second factor's admin routes (under /admin/v1). */
export const totpAdminRoutes: readonly AdminRoute[] = [
  { method: "DELETE", path: "/users/:id/mfa", handler: resetMfaHandler },
];
