import { defineEventHandler, setResponseHeader, type EventHandler, type H3Event } from "h3";
import type { WindowBucket } from "../core/limits.js";
import { AuthError } from "../core/errors.js";
import { pathParam } from "../http/admin/input.js";
import { readJsonBody } from "../http/body.js";
import type { HttpDeps } from "../http/deps.js";
import type { Method, Route } from "../http/route.js";
import { sessionOf } from "../http/guard.js";
import { updateSessionClaims, type SessionInfo } from "../http/session-guard.js";
import { computeOrgClaim, ORG_CLAIM } from "./claims.js";
import { permissionsOfRole, type OrgPermission } from "./org-roles.js";
import { findMembership } from "./store.js";

/** What a handler of the organizations' route table receives, once the guard has let the request in. */
export interface OrgRequest {
  event: H3Event;
  deps: HttpDeps;
  session: SessionInfo;
  /** The signed-in person (the token's `sub`). */
  personId: string;
  /** The organization of the path (`:id`), for organization-scoped routes. */
  organizationId: string;
  /** The caller's role there, for organization-scoped routes. */
  role: string;
  body(): Promise<Record<string, unknown>>;
}

/**
 * One row of the organizations' route table. `scope: "organization"` routes have `:id` in their
 * path and name the permission the caller needs in *that* organization ("member": any member).
 * `reissue`: the caller's own `org` claim may have changed, so the access token (and front-token)
 * is re-issued in the answer when it did, as the MFA claim is after a factor completes.
 */
export interface OrgRoute {
  method: Method;
  path: string;
  scope: "person" | "organization";
  permission?: OrgPermission | "member";
  reissue?: boolean;
  limits?: readonly WindowBucket[];
  handle(r: OrgRequest): Promise<Record<string, unknown>>;
}

const notFound = () => new AuthError("NOT_FOUND", "No such organization (or you are not a member of it)");

/** The organization of the path and the caller's role there, once the role guard let the request in. */
const memberships = new WeakMap<H3Event, { organizationId: string; role: string }>();

/**
 * The organizations' route guard (Room.routeGuard) for routes that declare a role in the scope
 * "organization": a membership of the path's organization (anyone else, including an invited
 * person who has not accepted, gets the same 404 as for an organization that does not exist: no
 * probing) and the route's permission in it (403 otherwise). The kernel has checked the session
 * first (the route declares it: http/guard.ts).
 */
export function guardOrgRole(deps: HttpDeps, route: Route, inner: EventHandler): EventHandler | undefined {
  if (route.role?.scope !== "organization") return undefined;
  const permission = route.role.permission;
  return defineEventHandler(async (event) => {
    const organizationId = pathParam(event, "id");
    const m = await findMembership(deps.ctx.store.db, organizationId, sessionOf(event).primaryUserId);
    if (!m) throw notFound();
    if (permission !== "member" && !((await permissionsOfRole(deps.ctx.store.db, m.role)) ?? []).includes(permission)) {
      throw new AuthError("FORBIDDEN", `Your role in this organization lacks the ${permission} permission`);
    }
    memberships.set(event, { organizationId, role: m.role });
    return inner(event);
  });
}

/**
 * An organizations' table row as the kernel's route: who may call it declared (a live session,
 * row checked, second factor complete; for an organization-scoped route, the role), applied by the
 * kernel and guardOrgRole, never in a handler.
 */
export function guardOrgRoute(r: OrgRoute): Route {
  return {
    method: r.method, path: r.path, session: "required+db", limits: r.limits,
    ...(r.scope === "organization" ? { role: { scope: "organization", permission: r.permission ?? "member" } } : {}),
    handler: (deps) => defineEventHandler(async (event) => {
      const session = sessionOf(event);
      const personId = session.primaryUserId;
      const { organizationId, role } = memberships.get(event) ?? { organizationId: "", role: "" };
      setResponseHeader(event, "cache-control", "no-store");
      const answer = await r.handle({ event, deps, session, personId, organizationId, role, body: () => readJsonBody(event, deps.ctx.config.bodyLimit) });
      if (!r.reissue) return answer;
      const tokens = await updateSessionClaims(event, deps, session, { [ORG_CLAIM]: await computeOrgClaim(deps.ctx.store.db, personId) });
      return { ...answer, ...tokens };
    }),
  };
}
