import { body, bodyErrors, errorsFor, json, modeParameters, notAllowed, ref, sessionCreated, statusOnly, tokenHeaders } from "../http/openapi/components.js";
import { apiArea, type Json } from "../http/openapi/types.js";

const withSession = [{ AccessToken: [] }, { AccessCookie: [] }];
const tags = ["organizations"];
const str = { type: "string" };
const strings = { type: "array", items: str };
const message = (description: string): Json => json(description, ref("Message"));
/** The guard's refusals: 403 the role lacks the permission, 404 no such organization or not a member of it. */
const guarded = { 403: message("your role in this organization lacks the permission, or the rule that no one gives more than they have refused it"), 404: message("no such organization, or you are not a member of it (the same answer)") };
const conflict = { 409: message("refused: the last owner, a slug that is taken, a member or open invitation already there") };
const tokenFields: Record<string, Json> = { accessToken: str, refreshToken: str, accessTokenExpiresAt: { type: "integer" } };
/** Answers that may re-issue the access token (header mode: st-access-token; cookie: Set-Cookie; always front-token). */
const reissued = "; re-issues the access token (and front-token) when the caller's `org` claim changed";
const idParam = { name: "id", in: "path", required: true, schema: str, description: "the organization's id" };
const param = (name: string, description: string) => ({ name, in: "path", required: true, schema: str, description });
const okWith = (extra: Record<string, Json>, required: string[]) => statusOnly("OK", { ...extra, ...tokenFields }, required);

/** Organizations (src/organizations/): authsvc's own endpoints, not part of the SuperTokens FDI. */
export const organizationsArea = apiArea("organizations", "Organizations: teams with members, roles and invitations; the access token's `org` claim is the active one's {id, slug, role, permissions}. authsvc's own endpoints", {
  "/organizations": {
    get: { operationId: "listMyOrganizations", tags, summary: "My organizations, with my role and permissions in each and which one is active", security: withSession,
      responses: { 200: json("mine", okWith({ organizations: { type: "array", items: ref("MyOrganization") } }, ["organizations"])), ...errorsFor(401, 403) } },
    post: { operationId: "createOrganization", tags, summary: `Create an organization ({name}, optional slug and metadata); I am its owner and it becomes my active one${reissued}`, security: withSession,
      requestBody: body({ type: "object", required: ["name"], properties: { name: str, slug: str, metadata: { type: "object" } } }),
      responses: { 200: json("created", okWith({ organization: ref("Organization") }, ["organization"])), ...bodyErrors(401, 403), ...conflict } },
  },
  "/organizations/active": {
    put: { operationId: "switchOrganization", tags, summary: `Make one of my organizations the active one ({organizationId}; null: none)${reissued}`, security: withSession,
      requestBody: body({ type: "object", required: ["organizationId"], properties: { organizationId: { type: ["string", "null"] } } }),
      responses: { 200: json("switched", okWith({}, [])), ...bodyErrors(401, 403), 404: guarded[404] } },
  },
  "/organizations/invitations/accept": {
    post: { operationId: "acceptOrganizationInvitation", tags, summary: `Accept an invitation ({token} from the mail's link): the signed-in person must have the invited address verified; the organization becomes my active one${reissued}`, security: withSession,
      requestBody: body({ type: "object", required: ["token"], properties: { token: str } }),
      responses: {
        200: json("OK, INVITATION_INVALID_TOKEN_ERROR (unknown, used, revoked or expired) or INVITATION_EMAIL_NOT_VERIFIED_ERROR (sign in with the invited address, verified)", { oneOf: [
          okWith({ organization: ref("Organization"), role: str }, ["organization", "role"]), statusOnly("INVITATION_INVALID_TOKEN_ERROR", tokenFields), statusOnly("INVITATION_EMAIL_NOT_VERIFIED_ERROR", tokenFields),
        ] }),
        ...bodyErrors(401, 403),
      } },
  },
  "/organizations/invitations/describe": {
    post: { operationId: "describeOrganizationInvitation", tags, summary: "What an invitation's link ({token}) invites to, for its holder: the address, the organization's name, the role, and whether the address has an account (sign in and accept) or not (sign up by invitation); no session",
      requestBody: body({ type: "object", required: ["token"], properties: { token: str } }),
      responses: {
        200: json("OK, or INVITATION_INVALID_TOKEN_ERROR (unknown, used, revoked or expired)", { oneOf: [
          statusOnly("OK", { email: str, organization: { type: "object", required: ["name"], properties: { name: str } }, role: str, expiresAt: { type: "integer" }, hasAccount: { type: "boolean" } }, ["email", "organization", "role", "expiresAt", "hasAccount"]),
          statusOnly("INVITATION_INVALID_TOKEN_ERROR"),
        ] }),
        ...bodyErrors(),
      } },
  },
  "/organizations/invitations/signup": {
    post: { operationId: "signUpByOrganizationInvitation", tags, summary: "Sign up from an invitation's link ({token, password}): an email/password account for the invited address, verified (the link proves the mailbox: no verification mail), joined to the organization (its active one) with a session, in one step; an address that has an account signs in and accepts instead",
      parameters: modeParameters, requestBody: body({ type: "object", required: ["token", "password"], properties: { token: str, password: str } }),
      responses: {
        200: json("OK with a session, INVITATION_INVALID_TOKEN_ERROR, INVITATION_ACCOUNT_EXISTS_ERROR (sign in with the address, then accept), FIELD_ERROR (the password) or SIGN_UP_NOT_ALLOWED", { oneOf: [
          sessionCreated({ organization: ref("Organization"), role: str }), statusOnly("INVITATION_INVALID_TOKEN_ERROR"), statusOnly("INVITATION_ACCOUNT_EXISTS_ERROR"), ref("FieldError"), notAllowed("SIGN_UP_NOT_ALLOWED"),
        ] }, tokenHeaders),
        ...bodyErrors(),
      } },
  },
  "/organizations/joinable": {
    get: { operationId: "listJoinableOrganizations", tags, summary: "The organizations I may join through a verified address of mine at a domain they proved (not those I am in), with the role I would get", security: withSession,
      responses: { 200: json("joinable", statusOnly("OK", { organizations: { type: "array", items: ref("JoinableOrganization") } }, ["organizations"])), ...errorsFor(401, 403) } },
  },
  "/organizations/join": {
    post: { operationId: "joinOrganizationByDomain", tags, summary: `Join one of the joinable organizations ({organizationId}) with its domain's role; it becomes my active one${reissued}`, security: withSession,
      requestBody: body({ type: "object", required: ["organizationId"], properties: { organizationId: str } }),
      responses: { 200: json("joined", okWith({ organization: ref("Organization"), role: str }, ["organization", "role"])), ...bodyErrors(401, 403), 404: message("not joinable: no such organization, no verified address of mine at its domains, or I am a member already (the same answer)") } },
  },
  "/organizations/{id}": {
    get: { operationId: "getOrganization", tags, summary: "One of my organizations, with my role and permissions there (org:read)", security: withSession, parameters: [idParam],
      responses: { 200: json("the organization", statusOnly("OK", { organization: ref("Organization"), role: str, permissions: strings }, ["organization", "role", "permissions"])), ...errorsFor(400, 401), ...guarded } },
    put: { operationId: "updateOrganization", tags, summary: `Rename, change the slug, or merge into the metadata (null deletes a key; metadataMaxBytes) (org:update)${reissued}`, security: withSession, parameters: [idParam],
      requestBody: body({ type: "object", properties: { name: str, slug: str, metadata: { type: "object" } } }),
      responses: { 200: json("updated", okWith({ organization: ref("Organization") }, ["organization"])), ...bodyErrors(401), ...guarded, ...conflict } },
  },
  "/organizations/{id}/roles": {
    get: { operationId: "listOrganizationRolesToHandOut", tags, summary: "The roles I may hand out here (invite with, give a member): the built-in ones and the operator's organization roles whose permissions are all mine (owners: every one) (any member)", security: withSession, parameters: [idParam],
      responses: { 200: json("the roles", statusOnly("OK", { roles: strings }, ["roles"])), ...errorsFor(400, 401), ...guarded } },
  },
  "/organizations/{id}/delete": {
    post: { operationId: "deleteOrganization", tags, summary: `Delete the organization, confirmed with its slug ({confirm}); members lose its claim at their next refresh (org:delete, owners)${reissued}`, security: withSession, parameters: [idParam],
      requestBody: body({ type: "object", required: ["confirm"], properties: { confirm: str } }),
      responses: { 200: json("deleted", okWith({}, [])), ...bodyErrors(401), ...guarded } },
  },
  "/organizations/{id}/leave": {
    post: { operationId: "leaveOrganization", tags, summary: `Leave the organization; the last owner cannot (409)${reissued}`, security: withSession, parameters: [idParam],
      responses: { 200: json("left", okWith({}, [])), ...errorsFor(400, 401), ...guarded, ...conflict } },
  },
  "/organizations/{id}/members": {
    get: { operationId: "listOrganizationMembers", tags, summary: "The members with their address and role (members:read)", security: withSession, parameters: [idParam],
      responses: { 200: json("members", statusOnly("OK", { members: { type: "array", items: ref("OrganizationMember") } }, ["members"])), ...errorsFor(400, 401), ...guarded } },
  },
  "/organizations/{id}/members/{userId}": {
    put: { operationId: "changeOrganizationMemberRole", tags, summary: `Give a member another role ({role}); only roles whose permissions I all have, never the last owner's (members:update)${reissued}`, security: withSession,
      parameters: [idParam, param("userId", "the member's user id")], requestBody: body({ type: "object", required: ["role"], properties: { role: str } }),
      responses: { 200: json("the member now", okWith({ member: ref("OrganizationMember") }, ["member"])), ...bodyErrors(401), ...guarded, ...conflict } },
  },
  "/organizations/{id}/members/{userId}/remove": {
    post: { operationId: "removeOrganizationMember", tags, summary: `Remove a member (the same rule as a role change; never the last owner) (members:remove)${reissued}`, security: withSession,
      parameters: [idParam, param("userId", "the member's user id")],
      responses: { 200: json("removed", okWith({}, [])), ...errorsFor(400, 401), ...guarded, ...conflict } },
  },
  "/organizations/{id}/domains": {
    get: { operationId: "listOrganizationDomains", tags, summary: "The domains the organization proved: people with a verified address there may join with the domain's role (members:read)", security: withSession, parameters: [idParam],
      responses: { 200: json("domains", statusOnly("OK", { domains: { type: "array", items: ref("OrganizationDomain") } }, ["domains"])), ...errorsFor(400, 401), ...guarded } },
  },
  "/organizations/{id}/invitations": {
    get: { operationId: "listOrganizationInvitations", tags, summary: "The open invitations, newest first (invitations:read)", security: withSession, parameters: [idParam],
      responses: { 200: json("open invitations", statusOnly("OK", { invitations: { type: "array", items: ref("OrganizationInvitation") } }, ["invitations"])), ...errorsFor(400, 401), ...guarded } },
    post: { operationId: "createOrganizationInvitation", tags, summary: "Invite an address with a role ({email, role}; role defaults to member): a link valid 7 days (organizationInvitationLifetimeMs) is mailed (invitations:create)", security: withSession, parameters: [idParam],
      requestBody: body({ type: "object", required: ["email"], properties: { email: str, role: str } }),
      responses: { 200: json("invited", statusOnly("OK", { invitation: ref("OrganizationInvitation") }, ["invitation"])), ...bodyErrors(401), ...guarded, ...conflict } },
  },
  "/organizations/{id}/invitations/{invitationId}/resend": {
    post: { operationId: "resendOrganizationInvitation", tags, summary: "Mail a new link (the older one stops working) with a new expiry, within the address's mail budget (invitations:create)", security: withSession,
      parameters: [idParam, param("invitationId", "the invitation's id")],
      responses: { 200: json("resent", statusOnly("OK", { invitation: ref("OrganizationInvitation") }, ["invitation"])), ...errorsFor(400, 401), ...guarded } },
  },
  "/organizations/{id}/invitations/{invitationId}/revoke": {
    post: { operationId: "revokeOrganizationInvitation", tags, summary: "Revoke an open invitation: its link stops working (invitations:revoke)", security: withSession,
      parameters: [idParam, param("invitationId", "the invitation's id")],
      responses: { 200: json("revoked", statusOnly("OK")), ...errorsFor(400, 401), ...guarded } },
  },
}, {
  Organization: { type: "object", required: ["id", "name", "slug", "metadata", "createdAt", "updatedAt"], additionalProperties: false, properties: {
    id: str, name: str, slug: str, metadata: { type: "object" }, createdAt: { type: "integer" }, updatedAt: { type: "integer" } } },
  MyOrganization: { type: "object", required: ["id", "name", "slug", "metadata", "createdAt", "updatedAt", "role", "permissions", "active"], additionalProperties: false, properties: {
    id: str, name: str, slug: str, metadata: { type: "object" }, createdAt: { type: "integer" }, updatedAt: { type: "integer" }, role: str, permissions: strings, active: { type: "boolean" } } },
  JoinableOrganization: { type: "object", required: ["id", "name", "slug", "metadata", "createdAt", "updatedAt", "domain", "role"], additionalProperties: false, properties: {
    id: str, name: str, slug: str, metadata: { type: "object" }, createdAt: { type: "integer" }, updatedAt: { type: "integer" }, domain: str, role: str } },
  OrganizationDomain: { type: "object", required: ["domain", "organizationId", "role", "verifiedBy", "createdAt"], additionalProperties: false, properties: {
    domain: str, organizationId: str, role: str, verifiedBy: str, createdAt: { type: "integer" } } },
  OrganizationMember: { type: "object", required: ["userId", "email", "role", "joinedAt"], additionalProperties: false, properties: { userId: str, email: str, role: str, joinedAt: { type: "integer" } } },
  OrganizationInvitation: { type: "object", required: ["id", "organizationId", "email", "role", "createdAt", "expiresAt", "invitedBy"], additionalProperties: false, properties: {
    id: str, organizationId: str, email: str, role: str, createdAt: { type: "integer" }, expiresAt: { type: "integer" }, invitedBy: { type: ["string", "null"] } } },
});
