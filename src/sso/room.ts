import type { Room } from "../kernel/room.js";
import { ssoCommands, ssoConnectionCommands } from "./commands.js";
import { ssoArea } from "./openapi.js";
import { ssoAdminArea } from "./routing-openapi.js";
import { samlRoutes } from "./saml-routes.js";
import { ssoSignInPolicy } from "./routing.js";
import { routingRoutes, ssoAdminRoutes } from "./routing-routes.js";
import { ssoRequireCommand } from "./routing-commands.js";
import { ssoSignIn, ssoStyles } from "./pages.js";
import { ssoWords } from "./words/index.js";
import { ssoDashboard } from "./dashboard.js";
import ssoRoutingJs from "./pages/sso-routing.js?raw";
import { lazy } from "../kernel/lazy.js";
import { SCIM_PREFIX } from "./scim-prefix.js";

/**
 * Enterprise sign-in per organization (docs/enterprise-sso.md): SCIM 2.0 provisioning under
 * /scim/v2, one bearer token per organization; the directory's Users are members, its Groups give
 * organization roles, and deprovisioning ends every way in of the person; SAML 2.0 connections
 * (saml-*.ts) sign its people in through its IdP.
 */
export const ssoRoom: Room = {
  id: "sso",
  events: {
    "organization.scim_token_created": { type: "organization.scim_token_created" },
    "organization.scim_user_provisioned": { type: "organization.scim_user_provisioned" },
    "organization.scim_user_updated": { type: "organization.scim_user_updated" },
    "organization.scim_user_reactivated": { type: "organization.scim_user_reactivated" },
    "organization.scim_user_deprovisioned": { type: "organization.scim_user_deprovisioned" },
    "organization.scim_group_created": { type: "organization.scim_group_created" },
    "organization.scim_group_updated": { type: "organization.scim_group_updated" },
    "organization.scim_group_deleted": { type: "organization.scim_group_deleted" },
    "organization.sso_connection_added": { type: "organization.sso_connection_added" },
    "organization.sso_connection_removed": { type: "organization.sso_connection_removed" },
    "organization.sso_required_changed": { type: "organization.sso_required_changed" },
  },
  // SCIM's handlers (and its filter parser) load on the first request under /scim/v2 (docs/performance.md, "Memory").
  mount: lazy(() => import("./scim-http.js").then((m) => m.createScimMount)),
  mountPath: SCIM_PREFIX,
  routes: [...samlRoutes, ...routingRoutes],
  adminRoutes: ssoAdminRoutes,
  adminOpenapi: ssoAdminArea,
  // "SSO required": an address at a requiring organization's domain signs in only through its connections (routing.ts).
  signInPolicy: ssoSignInPolicy,
  // The sign-in page's routing by address (pages.ts), in the page's language.
  signIn: ssoSignIn,
  assets: { "sso-routing.js": ssoRoutingJs },
  styles: ssoStyles,
  words: ssoWords,
  // The dashboard's Enterprise SSO section: connections, SSO required, SCIM tokens (dashboard.ts).
  dashboardSection: ssoDashboard,
  openapi: ssoArea,
  commands: [ssoCommands, ssoConnectionCommands, ssoRequireCommand],
  // SCIM and SAML work on an organization's members; a SAML sign-in is a provider identity, a
  // provisioned user an address-only person (kernel/offers.ts refuses to start without them).
  needs: () => ["memberships", "providerIdentities", "addressOnly"],
};
