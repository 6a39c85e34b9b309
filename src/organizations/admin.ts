import { defineEventHandler, setResponseStatus } from "h3";
import { AuthError } from "../core/errors.js";
import { readJsonBody } from "../http/body.js";
import type { AdminRoute } from "../http/admin/route.js";
import { pathParam } from "../http/admin/input.js";
import { findPersonId } from "../store/people.js";
import { addDomain, listDomains, removeDomain } from "./domains.js";
import { createInvitation, listInvitations, resendInvitation, revokeInvitation } from "./invitations.js";
import {
  addMember, changeMemberRole, createOrganization, deleteOrganization, getOrganization, listAllOrganizations, listMembers, listMyOrganizations,
  notFound, removeMember, updateOrganization, type Actor,
} from "./organizations.js";

const operator: Actor = { operator: "admin-api" };
const id = (event: Parameters<typeof pathParam>[0]) => pathParam(event, "id");

/**
 * The admin API's organizations routes: the operator passes every membership and rank check but
 * the last owner's (an organization always keeps one). The CLI calls the same core functions.
 */
export const organizationAdminRoutes: readonly AdminRoute[] = [
  { method: "GET", path: "/organizations", handler: (deps) => defineEventHandler(async () => ({ organizations: await listAllOrganizations(deps.ctx) })) },
  // POST /organizations {name, ownerUserId, slug?, metadata?}: the owner is required (one always exists).
  {
    method: "POST", path: "/organizations", handler: (deps) => defineEventHandler(async (event) => {
      const b = await readJsonBody(event, deps.ctx.config.bodyLimit);
      if (typeof b.ownerUserId !== "string" || !b.ownerUserId) throw new AuthError("BAD_INPUT", "ownerUserId is required: the user who owns the organization");
      const organization = await createOrganization(deps.ctx, { name: b.name, slug: b.slug, metadata: b.metadata }, b.ownerUserId, operator);
      setResponseStatus(event, 201);
      return { organization };
    }),
  },
  {
    method: "GET", path: "/organizations/:id", handler: (deps) => defineEventHandler(async (event) => {
      const organization = await getOrganization(deps.ctx, id(event));
      if (!organization) throw notFound();
      return { organization };
    }),
  },
  {
    method: "PUT", path: "/organizations/:id", handler: (deps) => defineEventHandler(async (event) => {
      const b = await readJsonBody(event, deps.ctx.config.bodyLimit);
      return { organization: await updateOrganization(deps.ctx, id(event), { name: b.name, slug: b.slug, metadata: b.metadata }, operator) };
    }),
  },
  // DELETE /organizations/:id: the admin key is the operator's confirmation.
  { method: "DELETE", path: "/organizations/:id", handler: (deps) => defineEventHandler(async (event) => { await deleteOrganization(deps.ctx, id(event), operator); return { deleted: id(event) }; }) },
  {
    method: "GET", path: "/organizations/:id/members", handler: (deps) => defineEventHandler(async (event) => {
      if (!(await getOrganization(deps.ctx, id(event)))) throw notFound();
      return { members: await listMembers(deps.ctx, id(event)) };
    }),
  },
  {
    method: "POST", path: "/organizations/:id/members", handler: (deps) => defineEventHandler(async (event) => {
      const b = await readJsonBody(event, deps.ctx.config.bodyLimit);
      if (typeof b.userId !== "string" || !b.userId) throw new AuthError("BAD_INPUT", "userId is required");
      const member = await addMember(deps.ctx, id(event), b.userId, typeof b.role === "string" && b.role ? b.role : "member", "admin-api");
      setResponseStatus(event, 201);
      return { member };
    }),
  },
  {
    method: "PUT", path: "/organizations/:id/members/:userId", handler: (deps) => defineEventHandler(async (event) => {
      const b = await readJsonBody(event, deps.ctx.config.bodyLimit);
      return { member: await changeMemberRole(deps.ctx, id(event), operator, pathParam(event, "userId"), b.role) };
    }),
  },
  { method: "DELETE", path: "/organizations/:id/members/:userId", handler: (deps) => defineEventHandler(async (event) => { await removeMember(deps.ctx, id(event), operator, pathParam(event, "userId")); return { removed: pathParam(event, "userId") }; }) },
  {
    method: "GET", path: "/organizations/:id/invitations", handler: (deps) => defineEventHandler(async (event) => {
      if (!(await getOrganization(deps.ctx, id(event)))) throw notFound();
      return { invitations: await listInvitations(deps.ctx, id(event)) };
    }),
  },
  {
    method: "POST", path: "/organizations/:id/invitations", handler: (deps) => defineEventHandler(async (event) => {
      const b = await readJsonBody(event, deps.ctx.config.bodyLimit);
      const invitation = await createInvitation(deps.ctx, id(event), operator, { email: b.email, role: b.role });
      setResponseStatus(event, 201);
      return { invitation };
    }),
  },
  { method: "POST", path: "/organizations/:id/invitations/:invitationId/resend", handler: (deps) => defineEventHandler(async (event) => ({ invitation: await resendInvitation(deps.ctx, id(event), operator, pathParam(event, "invitationId")) })) },
  { method: "DELETE", path: "/organizations/:id/invitations/:invitationId", handler: (deps) => defineEventHandler(async (event) => { await revokeInvitation(deps.ctx, id(event), operator, pathParam(event, "invitationId")); return { revoked: pathParam(event, "invitationId") }; }) },
  {
    method: "GET", path: "/organizations/:id/domains", handler: (deps) => defineEventHandler(async (event) => {
      if (!(await getOrganization(deps.ctx, id(event)))) throw notFound();
      return { domains: await listDomains(deps.ctx, id(event)) };
    }),
  },
  // PUT /organizations/:id/domains/:domain {role?}: the admin key vouches that the organization owns it.
  {
    method: "PUT", path: "/organizations/:id/domains/:domain", handler: (deps) => defineEventHandler(async (event) => {
      const b = await readJsonBody(event, deps.ctx.config.bodyLimit);
      return { domain: await addDomain(deps.ctx, id(event), { domain: pathParam(event, "domain"), role: b.role }, "admin-api") };
    }),
  },
  { method: "DELETE", path: "/organizations/:id/domains/:domain", handler: (deps) => defineEventHandler(async (event) => { await removeDomain(deps.ctx, id(event), pathParam(event, "domain"), "admin-api"); return { removed: pathParam(event, "domain") }; }) },
  // GET /users/:id/organizations: the person's organizations with their role in each.
  {
    method: "GET", path: "/users/:id/organizations", handler: (deps) => defineEventHandler(async (event) => {
      const person = await findPersonId(deps.ctx.store.db, id(event));
      if (person === undefined) throw new AuthError("NOT_FOUND", "No such user");
      return { userId: person, organizations: await listMyOrganizations(deps.ctx, person) };
    }),
  },
];
