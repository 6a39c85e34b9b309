import { ADMIN_PREFIX } from "../http/admin/route.js";
import { adminOpenApi as a } from "../http/openapi/admin.js";
import { json, ref } from "../http/openapi/components.js";
import type { OpenApiArea } from "../http/openapi/types.js";

const op = (id: string, summary: string, rest: Record<string, unknown>) => ({ ...a.op(id, summary, rest), tags: ["organizations-admin"] });
const org = a.param("id", "the organization's id");
const str = { type: "string" };
const one = (name: string, schema: string) => a.object({ [name]: ref(schema) });
const list = (name: string, schema: string) => a.object({ [name]: { type: "array", items: ref(schema) } });

/** The admin API's organizations (src/organizations/admin.ts); schemas shared with the public area. */
export const organizationsAdminArea: OpenApiArea = {
  tag: { name: "organizations-admin", description: "Admin API: organizations, their members and invitations; the operator passes every membership check but the last owner's" },
  prefix: () => ADMIN_PREFIX,
  paths: {
    "/organizations": {
      get: op("adminListOrganizations", "Every organization, oldest first", { responses: { 200: json("organizations", list("organizations", "Organization")), ...a.errorsFor() } }),
      post: op("adminCreateOrganization", "Create an organization owned by ownerUserId", {
        requestBody: a.body(a.object({ name: str, ownerUserId: str, slug: str, metadata: { type: "object" } }, ["name", "ownerUserId"]), true),
        responses: { 201: json("created", one("organization", "Organization")), ...a.bodyErrors(409) },
      }),
    },
    "/organizations/{id}": {
      get: op("adminGetOrganization", "One organization", { parameters: [org], responses: { 200: json("the organization", one("organization", "Organization")), ...a.errorsFor(400) } }),
      put: op("adminUpdateOrganization", "Rename, change the slug, or merge into the metadata (null deletes a key)", {
        parameters: [org], requestBody: a.body(a.object({ name: str, slug: str, metadata: { type: "object" } }, []), true),
        responses: { 200: json("updated", one("organization", "Organization")), ...a.bodyErrors(409) },
      }),
      delete: op("adminDeleteOrganization", "Delete the organization with its members and invitations; members lose its claim at their next refresh", {
        parameters: [org], responses: { 200: json("deleted", a.object({ deleted: str })), ...a.errorsFor(400) },
      }),
    },
    "/organizations/{id}/members": {
      get: op("adminListOrganizationMembers", "The members, oldest first", { parameters: [org], responses: { 200: json("members", list("members", "OrganizationMember")), ...a.errorsFor(400) } }),
      post: op("adminAddOrganizationMember", "Add a user with a role (member by default)", {
        parameters: [org], requestBody: a.body(a.object({ userId: str, role: str }, ["userId"]), true),
        responses: { 201: json("added", one("member", "OrganizationMember")), ...a.bodyErrors(409) },
      }),
    },
    "/organizations/{id}/members/{userId}": {
      put: op("adminChangeOrganizationMemberRole", "Give a member another role; the last owner keeps theirs (409)", {
        parameters: [org, a.param("userId", "the member's user id")], requestBody: a.body(a.object({ role: str }), true),
        responses: { 200: json("the member now", one("member", "OrganizationMember")), ...a.bodyErrors(409) },
      }),
      delete: op("adminRemoveOrganizationMember", "Remove a member; never the last owner (409)", {
        parameters: [org, a.param("userId", "the member's user id")], responses: { 200: json("removed", a.object({ removed: str })), ...a.errorsFor(400, 409) },
      }),
    },
    "/organizations/{id}/invitations": {
      get: op("adminListOrganizationInvitations", "The open invitations, newest first", { parameters: [org], responses: { 200: json("open invitations", list("invitations", "OrganizationInvitation")), ...a.errorsFor(400) } }),
      post: op("adminCreateOrganizationInvitation", "Invite an address with a role (member by default); the link is mailed", {
        parameters: [org], requestBody: a.body(a.object({ email: str, role: str }, ["email"]), true),
        responses: { 201: json("invited", one("invitation", "OrganizationInvitation")), ...a.bodyErrors(409) },
      }),
    },
    "/organizations/{id}/invitations/{invitationId}/resend": {
      post: op("adminResendOrganizationInvitation", "Mail a new link (the older one stops working) with a new expiry", {
        parameters: [org, a.param("invitationId", "the invitation's id")], responses: { 200: json("resent", one("invitation", "OrganizationInvitation")), ...a.errorsFor(400) },
      }),
    },
    "/organizations/{id}/invitations/{invitationId}": {
      delete: op("adminRevokeOrganizationInvitation", "Revoke an open invitation", {
        parameters: [org, a.param("invitationId", "the invitation's id")], responses: { 200: json("revoked", a.object({ revoked: str })), ...a.errorsFor(400) },
      }),
    },
    "/organizations/{id}/domains": {
      get: op("adminListOrganizationDomains", "The domains the organization proved", { parameters: [org], responses: { 200: json("domains", list("domains", "OrganizationDomain")), ...a.errorsFor(400) } }),
    },
    "/organizations/{id}/domains/{domain}": {
      put: op("adminAddOrganizationDomain", "Vouch that the organization owns the domain (check it first, e.g. a DNS TXT record): people with a verified address there may join with the role (member by default; never owner); a domain belongs to one organization (409)", {
        parameters: [org, a.param("domain", "the domain, e.g. example.com")], requestBody: a.body(a.object({ role: str }, []), false),
        responses: { 200: json("the domain", one("domain", "OrganizationDomain")), ...a.bodyErrors(409) },
      }),
      delete: op("adminRemoveOrganizationDomain", "Stop joining through the domain (its members stay)", {
        parameters: [org, a.param("domain", "the domain")], responses: { 200: json("removed", a.object({ removed: str })), ...a.errorsFor(400) },
      }),
    },
    "/users/{id}/organizations": {
      get: op("adminGetUserOrganizations", "The user's organizations with their role and permissions in each", {
        parameters: [a.userId], responses: { 200: json("organizations", a.object({ userId: str, organizations: { type: "array", items: ref("MyOrganization") } })), ...a.errorsFor(400) },
      }),
    },
  },
};
