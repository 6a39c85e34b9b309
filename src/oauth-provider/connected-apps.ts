import { defineEventHandler } from "h3";
import { AuthError, badInput } from "../core/errors.js";
import type { AdminRoute } from "../http/admin/route.js";
import { pathParam } from "../http/admin/input.js";
import { readJsonBody } from "../http/body.js";
import type { HttpDeps } from "../http/deps.js";
import type { Route } from "../http/route.js";
import { requireSession } from "../http/session-guard.js";
import { listPersonGrants, revokePersonGrant } from "./grants.js";

/**
 * "Connected apps": the grants a person gave, for the person (API under the API base path, the
 * hosted page connected-apps.js calls it) and for the operator (admin API). Answered while the
 * provider is on; off, there are no grants to show.
 */
export const connectedAppsRoutes: readonly Route[] = [
  { method: "GET", path: "/account/connected-apps", session: "required+db", handler: (deps) => defineEventHandler(async (event) => {
    const s = await requireSession(event, deps, { checkDatabase: true });
    return { status: "OK", apps: (await listPersonGrants(deps.ctx, s.userId)) ?? [] };
  }) },
  { method: "POST", path: "/account/connected-apps/revoke", session: "required+db", handler: (deps) => defineEventHandler(async (event) => {
    const s = await requireSession(event, deps, { checkDatabase: true });
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    if (typeof body.grantId !== "string" || body.grantId.length === 0 || body.grantId.length > 200) throw badInput("grantId (a string) is required");
    return { status: "OK", revoked: (await revokePersonGrant(deps.ctx, s.userId, body.grantId, "account")) ? 1 : 0 };
  }) },
];

export const connectedAppsAdminRoutes: readonly AdminRoute[] = [
  { method: "GET", path: "/users/:id/oauth-grants", handler: (deps: HttpDeps) => defineEventHandler(async (event) => {
    const grants = await listPersonGrants(deps.ctx, pathParam(event, "id"));
    if (!grants) throw new AuthError("NOT_FOUND", "No such user");
    return { grants };
  }) },
  { method: "DELETE", path: "/users/:id/oauth-grants/:grantId", handler: (deps: HttpDeps) => defineEventHandler(async (event) => {
    const grantId = pathParam(event, "grantId");
    if (!(await revokePersonGrant(deps.ctx, pathParam(event, "id"), grantId, "admin-api"))) throw new AuthError("NOT_FOUND", "No such grant for this user");
    return { revoked: grantId };
  }) },
];
