import type { Room } from "../kernel/room.js";
import { ssoCommands, ssoConnectionCommands } from "./commands.js";
import { ssoArea } from "./openapi.js";
import { samlRoutes } from "./saml-routes.js";
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
  },
  // SCIM's handlers (and its filter parser) load on the first request under /scim/v2 (docs/performance.md, "Memory").
  mount: lazy(() => import("./scim-http.js").then((m) => m.createScimMount)),
  mountPath: SCIM_PREFIX,
  routes: samlRoutes,
  openapi: ssoArea,
  commands: [ssoCommands, ssoConnectionCommands],
  // SCIM and SAML work on an organization's members; a SAML sign-in is a provider identity, a
  // provisioned user an address-only person (kernel/offers.ts refuses to start without them).
  needs: () => ["memberships", "providerIdentities", "addressOnly"],
};
