import { defineEventHandler } from "h3";
import { AuthError, badInput } from "../core/errors.js";
import type { AdminRoute } from "../http/admin/route.js";
import { pathParam } from "../http/admin/input.js";
import { readJsonBody } from "../http/body.js";
import type { HttpDeps } from "../http/deps.js";
import type { PersonPagePart, PersonPanel } from "../http/person-panels.js";
import type { Route } from "../http/route.js";
import { sessionOf } from "../http/guard.js";
import { listPersonGrants, revokePersonGrant, type GrantView } from "./grants.js";

/**
 * "Connected apps": the grants a person gave, for the person (API under the API base path, the
 * hosted page connected-apps.js calls it) and for the operator (admin API). Answered while the
 * provider is on; off, there are no grants to show.
 */
export const connectedAppsRoutes: readonly Route[] = [
  { method: "GET", path: "/account/connected-apps", session: "required+db", handler: (deps) => defineEventHandler(async (event) => {
    const s = sessionOf(event);
    return { status: "OK", apps: (await listPersonGrants(deps.ctx, s.userId)) ?? [] };
  }) },
  { method: "POST", path: "/account/connected-apps/revoke", session: "required+db", support: "refused", handler: (deps) => defineEventHandler(async (event) => {
    const s = sessionOf(event);
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

/** The person page's "Connected apps" (while the provider is on): the apps they allowed, each revocable. */
const connectedAppsPanel: PersonPanel<GrantView[] | undefined> = {
  id: "apps",
  title: "Connected apps",
  place: "after-sessions",
  load: async (ctx, person) => (ctx.config.oauthProvider ? listPersonGrants(ctx, person.id) : undefined),
  render: (grants, k) => {
    if (!grants) return "";
    if (grants.length === 0) return "<p>No app was allowed to use this account.</p>";
    const rows = grants.map((g) => {
      const access = [...g.resources.map((x) => `${x.resource}${x.scopes.length ? ` (${x.scopes.join(", ")})` : ""}`), ...(g.scopes.length ? [g.scopes.join(", ")] : [])].join("; ");
      return `<tr><th scope="row">${k.escape(g.clientName)}</th><td>${k.escape(g.redirectHosts.join(", "))}</td><td>${k.escape(access)}</td><td>${k.time(g.grantedAt)}</td><td>${k.button("oauth-grants/revoke", "Revoke", `the grant of ${g.clientName}`, { danger: true, fields: { grantId: g.grantId } })}</td></tr>`;
    });
    return k.table("Apps allowed to use this account", ["App", "Returns to", "Access", "Allowed", "Action"], rows);
  },
};

/** Connected apps on the dashboard's person page: the panel, and revoking a grant (its refresh tokens end with it). */
export const connectedAppsPersonPage: PersonPagePart = {
  panels: [connectedAppsPanel],
  actions: [{
    path: "oauth-grants/revoke",
    run: async (ctx, person, { form, source }) => {
      const ok = await revokePersonGrant(ctx, person.id, (form.get("grantId") ?? "").trim(), source);
      return ok ? { kind: "ok", text: "The app's grant was revoked: it can no longer refresh its tokens." } : { kind: "error", text: "That grant is not one of this user's." };
    },
  }],
};
