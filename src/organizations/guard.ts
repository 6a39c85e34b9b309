import { defineEventHandler, setResponseHeader, type H3Event } from "h3";
import type { WindowBucket } from "../core/limits.js";
import { AuthError } from "../core/errors.js";
import { pathParam } from "../http/admin/input.js";
import { readJsonBody } from "../http/body.js";
import type { HttpDeps } from "../http/deps.js";
import type { Method, Route } from "../http/route.js";
import { requireSession, updateSessionClaims, type SessionInfo } from "../http/session-guard.js";
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

/**
 * The one guard of every organization endpoint, applied here from the table and never in a
 * handler: a live session (row checked, second factor complete); for an organization-scoped route,
 * a membership of the path's organization (anyone else, including an invited person who has not
 * accepted, gets the same 404 as for an organization that does not exist: no probing) and the
 * route's permission in it (403 otherwise).
 */
export function guardOrgRoute(r: OrgRoute): Route {
  return {
    method: r.method, path: r.path, session: "required+db", limits: r.limits,
    handler: (deps) => defineEventHandler(async (event) => {
      const session = await requireSession(event, deps, { checkDatabase: true });
      const personId = session.primaryUserId;
      let organizationId = "";
      let role = "";
      if (r.scope === "organization") {
        organizationId = pathParam(event, "id");
        const m = await findMembership(deps.ctx.store.db, organizationId, personId);
        if (!m) throw notFound();
        role = m.role;
        if (r.permission && r.permission !== "member" && !((await permissionsOfRole(deps.ctx.store.db, role)) ?? []).includes(r.permission)) {
          throw new AuthError("FORBIDDEN", `Your role in this organization lacks the ${r.permission} permission`);
        }
      }
      setResponseHeader(event, "cache-control", "no-store");
      const answer = await r.handle({ event, deps, session, personId, organizationId, role, body: () => readJsonBody(event, deps.ctx.config.bodyLimit) });
      if (!r.reissue) return answer;
      const tokens = await updateSessionClaims(event, deps, session, { [ORG_CLAIM]: await computeOrgClaim(deps.ctx.store.db, personId) });
      return { ...answer, ...tokens };
    }),
  };
}
