import type { Room } from "../kernel/room.js";
import acceptJs from "./accept-invitation.js?raw";
import { acceptInvitationPage } from "./accept-page.js";
import organizationsJs from "./my-organizations.js?raw";
import { organizationsPage, organizationsPagePath } from "./organizations-page.js";
import { organizationAdminRoutes } from "./admin.js";
import { organizationsAdminArea } from "./admin-openapi.js";
import { createOrgClaim } from "./claims.js";
import { organizationCommands } from "./commands.js";
import { organizationsDashboard } from "./dashboard.js";
import { organizationsOnPersonDeletion } from "./deletion.js";
import { organizationsImport } from "./import.js";
import { organizationsArea } from "./openapi.js";
import { organizationRoutes } from "./routes.js";
import { guardOrgRole } from "./guard.js";
import { invitedSignUpRoutes } from "./invited-sign-up.js";
import { organizationSettings } from "./settings.js";
import { organizationMail } from "./mail.js";
import { hostedPageRoutes } from "../http/pages/route.js";
import { organizationWords } from "./words/index.js";
import { OWNER, permissionsOfRole } from "./org-roles.js";
import * as store from "./store.js";

/** Organizations: teams, members with roles, invitations, and the active one's `org` claim. */
export const organizationsRoom: Room = {
  id: "organizations",
  // Its webhooks: the organization, its members and its invitations.
  events: {
    "organization.created": { type: "organization.created" },
    "organization.updated": { type: "organization.updated" },
    "organization.deleted": { type: "organization.deleted" },
    "organization.member_added": { type: "organization.member_added" },
    "organization.member_role_changed": { type: "organization.member_role_changed" },
    "organization.member_removed": { type: "organization.member_removed" },
    "organization.member_left": { type: "organization.member_removed", data: { reason: "left" } },
    "organization.invitation_created": { type: "organization.invitation_created" },
    "organization.invitation_resent": { type: "organization.invitation_created", data: { resent: true } },
    "organization.invitation_revoked": { type: "organization.invitation_revoked" },
    "organization.invitation_accepted": { type: "organization.invitation_accepted" },
    "organization.domain_added": { type: "organization.domain_added" },
    "organization.domain_removed": { type: "organization.domain_removed" },
  },
  mail: organizationMail,
  words: organizationWords,
  importer: organizationsImport,
  settings: [organizationSettings],
  routes: [...organizationRoutes, ...invitedSignUpRoutes],
  routeGuard: guardOrgRole,
  openapi: organizationsArea,
  adminRoutes: organizationAdminRoutes,
  adminOpenapi: organizationsAdminArea,
  claims: () => [createOrgClaim()],
  personDeletion: organizationsOnPersonDeletion,
  // What other rooms (enterprise SSO) may do with organizations and their members (core/memberships.ts).
  memberships: {
    findOrganization: store.findOrganization, findOrganizationBySlug: store.findOrganizationBySlug, findDomain: store.findDomain,
    lockOrganization: store.lockOrganization, findMember: store.findMembership, insertMember: store.insertMember,
    setMemberRole: store.setMemberRole, deleteMember: store.deleteMember, ownerRole: OWNER, permissionsOfRole,
  },
  // An invitation's link signs a new person up with a password.
  needs: () => ["password"],
  assets: { "accept-invitation.js": acceptJs, "organizations.js": organizationsJs },
  pages: (config) => hostedPageRoutes(config, { "/accept-invitation": acceptInvitationPage, [organizationsPagePath]: organizationsPage }),
  accountPage: {
    links: (config, w) => (config.hostedPages ? [{ place: "memberships", path: `${config.websiteBasePath}${organizationsPagePath}`, label: w.t("org.page.title"), count: { path: "/organizations", field: "organizations" } }] : []),
  },
  commands: [organizationCommands],
  dashboardSection: organizationsDashboard,
};
