import { badInput } from "../core/errors.js";
import { pathParam } from "../http/admin/input.js";
import type { Route } from "../http/route.js";
import { joinByDomain, listDomains, listJoinable } from "./domains.js";
import { guardOrgRoute, type OrgRoute } from "./guard.js";
import { acceptInvitation, createInvitation, listInvitations, resendInvitation, revokeInvitation } from "./invitations.js";
import { permissionsOfRole, rolesToHandOut } from "./org-roles.js";
import {
  changeMemberRole, createOrganization, deleteOrganization, getOrganization, leaveOrganization, listMembers, listMyOrganizations,
  removeMember, switchOrganization, updateOrganization,
} from "./organizations.js";

const ok = (rest: Record<string, unknown> = {}) => ({ status: "OK", ...rest });
const me = (r: { personId: string }) => ({ personId: r.personId });

/**
 * The organizations' slice of the route table, on one screen: method, path, the permission the
 * caller needs in the path's organization, whether the caller's own token is re-issued. The guard
 * (guard.ts) applies the session and the permission from this table; the handlers below only
 * parse, call one core function and shape the answer.
 */
const table: readonly OrgRoute[] = [
  { method: "GET", path: "/organizations", scope: "person", handle: async (r) => ok({ organizations: await listMyOrganizations(r.deps.ctx, r.personId) }) },
  { method: "POST", path: "/organizations", scope: "person", reissue: true, handle: async (r) => {
    const b = await r.body();
    return ok({ organization: await createOrganization(r.deps.ctx, { name: b.name, slug: b.slug, metadata: b.metadata }, r.personId, me(r)) });
  } },
  { method: "PUT", path: "/organizations/active", scope: "person", reissue: true, handle: async (r) => {
    const id = (await r.body()).organizationId;
    if (id !== null && (typeof id !== "string" || !id)) throw badInput("organizationId is required: an organization's id, or null for none");
    await switchOrganization(r.deps.ctx, r.personId, id);
    return ok();
  } },
  // Token submissions: a guessed token is counted like a wrong reset token.
  { method: "POST", path: "/organizations/invitations/accept", scope: "person", reissue: true, limits: ["invalid-token-ip", "token-ip"], handle: async (r) => {
    const res = await acceptInvitation(r.deps.ctx, r.personId, (await r.body()).token);
    if (res.status !== "OK") return res;
    return ok({ organization: await getOrganization(r.deps.ctx, res.organizationId), role: res.role });
  } },
  // Domain auto-join (domains.ts): offered, never automatic; only through a verified address.
  { method: "GET", path: "/organizations/joinable", scope: "person", handle: async (r) => ok({ organizations: await listJoinable(r.deps.ctx, r.personId) }) },
  { method: "POST", path: "/organizations/join", scope: "person", reissue: true, handle: async (r) => ok(await joinByDomain(r.deps.ctx, r.personId, (await r.body()).organizationId)) },
  { method: "GET", path: "/organizations/:id", scope: "organization", permission: "org:read", handle: async (r) =>
    ok({ organization: await getOrganization(r.deps.ctx, r.organizationId), role: r.role, permissions: (await permissionsOfRole(r.deps.ctx.store.db, r.role)) ?? [] }) },
  { method: "PUT", path: "/organizations/:id", scope: "organization", permission: "org:update", reissue: true, handle: async (r) => {
    const b = await r.body();
    return ok({ organization: await updateOrganization(r.deps.ctx, r.organizationId, { name: b.name, slug: b.slug, metadata: b.metadata }, me(r)) });
  } },
  { method: "POST", path: "/organizations/:id/delete", scope: "organization", permission: "org:delete", reissue: true, handle: async (r) => {
    await deleteOrganization(r.deps.ctx, r.organizationId, me(r), (await r.body()).confirm);
    return ok();
  } },
  { method: "POST", path: "/organizations/:id/leave", scope: "organization", permission: "member", reissue: true, handle: async (r) => {
    await leaveOrganization(r.deps.ctx, r.organizationId, r.personId);
    return ok();
  } },
  // What the role fields offer: only the roles the caller may hand out (no one gives more than they have).
  { method: "GET", path: "/organizations/:id/roles", scope: "organization", permission: "member", handle: async (r) => ok({ roles: await rolesToHandOut(r.deps.ctx.store.db, r.role) }) },
  { method: "GET", path: "/organizations/:id/members", scope: "organization", permission: "members:read", handle: async (r) => ok({ members: await listMembers(r.deps.ctx, r.organizationId) }) },
  { method: "PUT", path: "/organizations/:id/members/:userId", scope: "organization", permission: "members:update", reissue: true, handle: async (r) =>
    ok({ member: await changeMemberRole(r.deps.ctx, r.organizationId, me(r), pathParam(r.event, "userId"), (await r.body()).role) }) },
  { method: "POST", path: "/organizations/:id/members/:userId/remove", scope: "organization", permission: "members:remove", reissue: true, handle: async (r) => {
    await removeMember(r.deps.ctx, r.organizationId, me(r), pathParam(r.event, "userId"));
    return ok();
  } },
  { method: "GET", path: "/organizations/:id/domains", scope: "organization", permission: "members:read", handle: async (r) => ok({ domains: await listDomains(r.deps.ctx, r.organizationId) }) },
  { method: "GET", path: "/organizations/:id/invitations", scope: "organization", permission: "invitations:read", handle: async (r) => ok({ invitations: await listInvitations(r.deps.ctx, r.organizationId) }) },
  // Each invitation is a mail: the per-IP mail budget here, the per-address one in the core.
  { method: "POST", path: "/organizations/:id/invitations", scope: "organization", permission: "invitations:create", limits: ["mail-ip"], handle: async (r) => {
    const b = await r.body();
    return ok({ invitation: await createInvitation(r.deps.ctx, r.organizationId, me(r), { email: b.email, role: b.role }) });
  } },
  { method: "POST", path: "/organizations/:id/invitations/:invitationId/resend", scope: "organization", permission: "invitations:create", limits: ["mail-ip"], handle: async (r) =>
    ok({ invitation: await resendInvitation(r.deps.ctx, r.organizationId, me(r), pathParam(r.event, "invitationId")) }) },
  { method: "POST", path: "/organizations/:id/invitations/:invitationId/revoke", scope: "organization", permission: "invitations:revoke", handle: async (r) => {
    await revokeInvitation(r.deps.ctx, r.organizationId, me(r), pathParam(r.event, "invitationId"));
    return ok();
  } },
];

/** The table with its guard applied, as the kernel's route type. */
export const organizationRoutes: readonly Route[] = table.map(guardOrgRoute);
