import { defineEventHandler } from "h3";
import { AuthError } from "../core/errors.js";
import type { AdminRoute } from "../http/admin/route.js";
import { pathParam } from "../http/admin/input.js";
import { readJsonBody } from "../http/body.js";
import type { Route } from "../http/route.js";
import { listConnections } from "./saml-connections.js";
import { discover, isSsoRequired, setSsoRequired } from "./routing.js";
import { findTokenCreatedAt } from "./scim-token-state.js";
import { organizationByRef } from "./organization-lookups.js";

/**
 * `POST /sso/discover {email}`: the hosted sign-in page asks, as the person types their address,
 * whether its domain signs in through an organization's connection. Answered by the domain alone
 * (never whether an account exists) and limited per client IP like the "does this address exist"
 * lookups.
 */
export const routingRoutes: readonly Route[] = [
  {
    method: "POST", path: "/sso/discover", session: "none", limits: ["email-exists-ip"],
    handler: (deps) => defineEventHandler(async (event) => {
      const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
      const route = await discover(deps.ctx, body.email);
      return { status: "OK", connection: route ?? null };
    }),
  },
];

const noOrganization = () => new AuthError("NOT_FOUND", "No such organization");

/** An organization's enterprise sign-in as the admin API and the dashboard show it: connections, SSO required, SCIM. */
export async function ssoState(deps: { ctx: import("../core/context.js").CoreContext }, organizationId: string) {
  const [connections, ssoRequired, scimTokenCreatedAt] = await Promise.all([
    listConnections(deps.ctx, organizationId), isSsoRequired(deps.ctx, organizationId), findTokenCreatedAt(deps.ctx.store.db, organizationId),
  ]);
  return { connections, ssoRequired, scim: { token: scimTokenCreatedAt !== undefined, tokenCreatedAt: scimTokenCreatedAt ?? null } };
}

/** The admin API: an organization's enterprise sign-in state, and "SSO required" on or off. */
export const ssoAdminRoutes: readonly AdminRoute[] = [
  // GET /organizations/:id/sso: its connections, whether SSO is required, whether it has a SCIM token.
  {
    method: "GET", path: "/organizations/:id/sso", handler: (deps) => defineEventHandler(async (event) => {
      const o = await organizationByRef(deps.ctx, deps.ctx.store.db, pathParam(event, "id"));
      if (!o) throw noOrganization();
      return ssoState(deps, o.id);
    }),
  },
  // PUT /organizations/:id/sso/required {required}: switches "SSO required" for its proven domains.
  {
    method: "PUT", path: "/organizations/:id/sso/required", handler: (deps) => defineEventHandler(async (event) => {
      const o = await organizationByRef(deps.ctx, deps.ctx.store.db, pathParam(event, "id"));
      if (!o) throw noOrganization();
      const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
      if (typeof body.required !== "boolean") throw new AuthError("BAD_INPUT", "required must be true or false");
      const changed = await setSsoRequired(deps.ctx, o.id, body.required, "admin-api");
      return { ssoRequired: body.required, changed };
    }),
  },
];
